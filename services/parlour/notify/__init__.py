"""Notifications through webhooks (issue 44): a durable outbox in Redis and its senders."""
