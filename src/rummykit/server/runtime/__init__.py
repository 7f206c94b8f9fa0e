"""The serving process's own machinery: worker processes for costly work, rate-limited logs."""
