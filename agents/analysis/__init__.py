"""The analyst's understanding of a question: plain Python, no Django."""
