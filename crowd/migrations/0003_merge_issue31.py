# Issue 31's two migrations were written side by side (items 1 and 2): the end page each
# worker was shown (0002_worker_end_shown) and trap explanations made side-neutral
# (0002_trap_explanations_side_neutral). They touch different rows, so either order is
# right; this joins them so that the graph has one leaf.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("crowd", "0002_trap_explanations_side_neutral"),
        ("crowd", "0002_worker_end_shown"),
    ]

    operations = []
