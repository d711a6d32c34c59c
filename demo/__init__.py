"""The demo collection: generated audio (``synth``), its plan (``plan``), and the
service that writes it to the database and media storage (``seed``).

``synth`` and ``plan`` import no Django; ``seed`` is the only module that does.
"""
