"""Accounts, roles and invitations: who organises and who judges."""
