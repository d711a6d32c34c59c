"""The leaderboard table made in Python reads as Django's template made it.

The reference is Django itself: its ``floatformat`` filter and ``{{ value }}``
(``localize``) for the numbers, and for whole rows the template loop the page used before
(kept below as ``ROW_TEMPLATE``), rendered by Django's engine with the same rows.
"""

import math
import re

import numpy as np
import pytest
from django.template import Context, Template
from django.template.defaultfilters import floatformat
from django.utils.formats import localize

from evaluation.leaderboard_rows import fixed, plain, table_body

NUMBERS = [
    0.0, -0.0, 0.12345, -0.12345, 0.99995, 0.00005, -0.00005, 2.5, 0.125, 1.0, 0.5,
    1e-5, -1e-5, 5e-17, 1e-300, 1e300, 123456789.123456, 273788405838555.1,
    2147483647.99995, math.nan, math.inf, -math.inf, 7, 0, -3,
]  # fmt: skip


def numbers():
    rng = np.random.default_rng(0)
    drawn = [
        rng.random(3000),
        rng.normal(0, 1e-4, 1000),
        np.round(rng.random(2000), 5),  # ties half way at the 4th place
        np.round(rng.normal(0, 1, 1000), 3),
        10.0 ** rng.uniform(-30, 30, 1000),
        rng.uniform(-(2**32), 2**32, 500),
    ]
    return NUMBERS + [float(x) for block in drawn for x in block]


def test_numbers_are_django_floatformat_and_plain_output():
    for value in [*numbers(), None]:
        for places in (2, 4):
            assert fixed(value, places) == str(floatformat(value, places)), (value, places)
        if value is not None:
            assert plain(value) == str(localize(value)), value


# The page's row before the table was made in Python (evaluation/templates/evaluation/leaderboard.html
# and _interval.html, with the {% url %} replaced by the row's href).
INTERVAL = (
    '{% if method == "t" or not method %}± {{ half|floatformat:4 }}{% if method %} '
    '<span class="method">(t)</span>{% endif %}{% else %}[{{ low|floatformat:4 }}, '
    '{{ high|floatformat:4 }}] <span class="method">(bootstrap)</span>{% endif %}'
)
ROW_TEMPLATE = (
    """{% for row in rows %}
    <tr{% if row.letters is None %} class="group-{{ row.group_parity }}" data-group="{{ row.group }}"{% endif %}>
      <td data-value="{{ row.rank }}">{{ row.rank }}</td>
      <td data-value="{{ row.system }}">{% if row.system_id %}<a href="{{ row.href }}">{{ row.system }}</a>{% else %}{{ row.system }}{% endif %}</td>
      <td data-value="{{ row.mean }}">{{ row.mean|floatformat:4 }}</td>
      <td data-value="{{ row.half_width }}">{% with low=row.ci_low high=row.ci_high half=row.half_width method=row.ci_method %}INTERVAL{% endwith %}</td>
      <td data-value="{{ row.psat_mean|default_if_none:'' }}">{% if row.psat_mean is not None %}{{ row.psat_mean|floatformat:4 }} {% with low=row.psat_low high=row.psat_high half=row.psat_half_width method=row.psat_method %}INTERVAL{% endwith %}{% else %}—{% endif %}</td>
      <td data-value="{{ row.psucc|default_if_none:'' }}">{% if row.psucc is not None %}{{ row.psucc|floatformat:2 }}{% else %}—{% endif %}</td>
      <td data-value="{{ row.psat_floor|default_if_none:'' }}">{% if row.psat_floor or row.psat_floor == 0 %}{{ row.psat_floor|floatformat:2 }}{% else %}—{% endif %}</td>
      <td data-value="{{ row.pred_low }}">[{{ row.pred_low|floatformat:4 }}, {{ row.pred_high|floatformat:4 }}]</td>
      {% if judged_label %}<td data-value="{{ row.judged|default_if_none:'' }}">{% if row.judged is not None %}{{ row.judged|floatformat:2 }}{% else %}—{% endif %}</td>{% endif %}
      <td data-value="{% if row.letters is not None %}{{ row.letters }}{% else %}{{ row.group_label }}{% endif %}" class="letters">{% if row.letters is not None %}{{ row.letters }}{% else %}{{ row.group_label }}{% endif %}</td>
    </tr>
  {% endfor %}"""
).replace("INTERVAL", INTERVAL)


def rows(n: int, *, letters: bool):
    rng = np.random.default_rng(n)
    values = numbers()
    out = []
    for i in range(n):
        pick = [values[int(j)] for j in rng.integers(0, len(values), 12)]
        psat = None if i % 5 == 0 else pick[3]
        out.append(
            {
                "rank": i + 1,
                "system": ["run<1>", 'a"b&c', "plain", "ünï"][i % 4] + str(i),
                "system_id": None if i % 7 == 3 else 100 + i,
                "mean": pick[0], "ci_low": pick[1], "ci_high": pick[2],
                "half_width": pick[11], "ci_method": ["t", "bootstrap", None][i % 3],
                "psat_mean": psat, "psat_low": pick[4], "psat_high": pick[5],
                "psat_half_width": pick[6], "psat_method": ["bootstrap", "t"][i % 2],
                "psucc": None if i % 4 == 1 else pick[7],
                "psat_floor": [None, 0, 0.0, pick[8]][i % 4],
                "pred_low": pick[9], "pred_high": pick[10],
                "judged": None if i % 3 == 0 else pick[8],
                "letters": ("ab" if i % 2 else "c") if letters else None,
                "group": i // 3, "group_parity": (i // 3) % 2, "group_label": f"G{i // 3}",
            }
        )  # fmt: skip
    return out


def squeezed(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", html)).strip()


@pytest.mark.parametrize("letters", [True, False])
@pytest.mark.parametrize("judged", [True, False])
def test_the_rows_are_the_ones_the_template_made(letters, judged):
    table = rows(60, letters=letters)

    def url(system_id):
        return f"/collections/1/results/systems/{system_id}/?measure=CG%28k%3D5%29"

    for row in table:
        row["href"] = url(row["system_id"]) if row["system_id"] else None
    expected = Template(ROW_TEMPLATE).render(
        Context({"rows": table, "judged_label": "Judged@5" if judged else ""})
    )
    made = table_body(table, system_url=url, judged=judged)
    assert squeezed(made) == squeezed(expected)
    assert "run&lt;1&gt;0" in made and "a&quot;b&amp;c1" in made  # names escaped
