"""Reading uploaded text files: inputs of any size, CSV records, rows of whitespace-separated fields, and the one error that names the file and line."""
