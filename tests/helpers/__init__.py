"""The one library of test helpers: personas, fixtures, data builders, HTTP clients of the crowd pages, process helpers. Test modules import from here, never from each other."""
