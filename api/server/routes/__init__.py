"""One router per resource: variants, solve (single and batch), validate, health."""
