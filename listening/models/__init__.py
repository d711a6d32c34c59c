"""Listening's models: audio served, headphone screens; import them from here."""

from listening.models.audio_served import AudioServed
from listening.models.headphones import AssessorScreen, HeadphoneTrial

__all__ = [
    "AssessorScreen",
    "AudioServed",
    "HeadphoneTrial",
]
