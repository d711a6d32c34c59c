"""Embedded services for one machine: Redis on a unix socket and a throwaway PostgreSQL.

``make run`` and the test suite start these as real server processes (never fakes)
and stop them by PID. Production points ``REDIS_URL``/``DATABASE_URL`` elsewhere.
"""
