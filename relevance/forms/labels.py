"""One name per relevance campaign setting, for every form that shows it (the New and
Settings pages of a campaign say the same thing: issue 25, item 7)."""

from listening.headphones import HEADPHONE_PASS_MARK_LABEL

RELEVANCE_LABELS = {
    "cutoff": "Cutoff k",
    "exclude_same_artist": "Leave out clips by the query's artist",
    "assessors_per_query": "Assessors per query",
    "queries_per_assessor": "Queries per assessor (cap)",
    "must_listen_seconds": "Must listen (seconds)",
    "take_back_minutes": "Take back untouched work after (minutes)",
    "headphone_check": "Screen for headphones before judging (with a volume calibration)",
    "headphone_pass_mark": HEADPHONE_PASS_MARK_LABEL,
}

RELEVANCE_HELP = {
    "headphone_check": "Six trials of three tones; over loudspeakers the quietest cannot be "
    "told (Woods et al. 2017). Each assessor takes it once, before their first candidate; "
    "below the pass mark twice, they judge no more until you let them try again. What "
    "they judged before stays.",
}
