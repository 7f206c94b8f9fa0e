"""Several processes serving one site: table leases, the bus, the relay, presence."""
