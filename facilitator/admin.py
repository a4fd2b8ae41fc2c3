"""Admin registrations for the facilitator models."""
