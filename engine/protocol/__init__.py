"""The table protocol: signed messages, a host-sequenced hash-chained log, and the peer driver."""
