"""The built-in behaviours: planner, analyst, reviewer, writer and the LLM agent; ``registry`` names them."""
