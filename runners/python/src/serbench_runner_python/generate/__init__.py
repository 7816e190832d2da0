"""The build step: a typed model per dataset, generated from its types file."""
