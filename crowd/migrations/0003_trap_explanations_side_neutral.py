# Trap questions' explanations without a side named in letters (issue 31 item 2).
#
# An explanation is shown to workers who may see the two lists the other way round; since
# issue 31 it names the stored lists only as {a} and {b} (crowd/explanations.py), filled in
# as each worker saw them. What the organiser typed before names "list A" for the stored
# list a (the trap page showed it so, and an examples file's column list_a is list a), so
# "list A" / "List B" / "list_a" become {a} / {b} — when that leaves no side named in
# letters. Anything else ("B does not", "lists A and B") is left as it was: it is shown to
# no worker, and the campaign page asks for it to be written again. The explanations
# Earshot writes itself (trap questions and quiz questions from the judgments) never
# named a side.

import re

from django.db import migrations, models

import common.validation
import crowd.explanations
from crowd.explanations import explanation_names_a_side

NAMED = re.compile(r"\b(?:[Ll]ist[ _]([AB])\b|list_([ab])\b)")
PLACEHOLDER = re.compile(r"\{([ab])\}")


def placeholders(apps, schema_editor):
    TrapQuestion = apps.get_model("crowd", "TrapQuestion")
    changed = []
    for trap in TrapQuestion.objects.exclude(explanation="").only("explanation"):
        text = NAMED.sub(lambda m: "{%s}" % (m.group(1) or m.group(2)).lower(), trap.explanation)
        if text != trap.explanation and explanation_names_a_side(text) is None:
            trap.explanation = text
            changed.append(trap)
    TrapQuestion.objects.bulk_update(changed, ["explanation"], batch_size=500)


def names(apps, schema_editor):
    """Backwards: {a} and {b} as the trap page named them before, List A and List B."""
    TrapQuestion = apps.get_model("crowd", "TrapQuestion")
    changed = []
    for trap in TrapQuestion.objects.filter(explanation__contains="{").only("explanation"):
        trap.explanation = PLACEHOLDER.sub(lambda m: f"List {m.group(1).upper()}", trap.explanation)
        changed.append(trap)
    TrapQuestion.objects.bulk_update(changed, ["explanation"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("crowd", "0002_worker_end_shown")]

    operations = [
        migrations.AlterField(
            model_name="trapquestion",
            name="explanation",
            field=models.TextField(
                blank=True,
                help_text="Shown to a worker who misses a quiz question or answers a practice "
                "one; {a} and {b} stand for the stored lists a and b, shown as that worker saw "
                "them.",
                validators=[
                    common.validation.TextValidator("text", None),
                    crowd.explanations.explanation_check,
                ],
            ),
        ),
        migrations.RunPython(placeholders, names),
    ]
