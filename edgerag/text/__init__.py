"""Text processing: token counting, sentences, chunks and sub-chunks, keywords."""
