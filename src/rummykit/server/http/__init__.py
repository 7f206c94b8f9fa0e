"""The edge: requests and sockets before they reach a wing (bodies, hellos, origins, beats)."""
