"""What is published, how it is judged, staged and swapped in, and how a deploy is read back."""
