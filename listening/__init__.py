"""What audio was served and heard, headphone screens, loudness and listening copies."""
