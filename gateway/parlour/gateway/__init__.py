"""The public gateway: seat tokens, routing to rules services, event fan-out."""
