"""The client's operations, grouped by resource."""
