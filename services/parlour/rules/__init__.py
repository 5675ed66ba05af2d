"""The rules service: one generic, stateless gRPC server for any registered game."""
