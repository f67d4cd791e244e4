"""The HTTP API's request and response bodies, with their bounds (pydantic)."""
