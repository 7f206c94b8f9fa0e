"""The site assembled from the wings: the ASGI app, and serving it on an address."""
