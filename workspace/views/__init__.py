"""The workspace's screens, one module each; `workspace/views/common.py` holds what they share."""
