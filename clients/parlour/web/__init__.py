"""The browser side: a Connect / gRPC-Web endpoint for GatewayService and the web client."""
