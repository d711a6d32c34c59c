"""Past preference answers imported into a campaign: the documented CSV, CrowdFlower / Appen exports with their columns chosen (thesis §3.2.2–3.3)."""
