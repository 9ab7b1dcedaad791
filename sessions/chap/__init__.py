"""The CHAP protocol core: message schemas, the hash chain, the context graph. Plain Python, no Django."""
