"""One name per preference campaign setting, for every form that shows it (the New and
Settings pages of a campaign say the same thing: issue 25, item 7)."""

from listening.headphones import HEADPHONE_PASS_MARK_LABEL

PREFERENCE_LABELS = {
    "name": "Name",
    "instructions": "Instructions for workers",
    "consent_text": "Consent text",
    "list_length": "Clips in each list",
    "answers_per_example": "Answers per example (redundancy)",
    "max_answers_per_worker": "Tasks per worker at most (M)",
    "quiz_length": "Quiz length (Q)",
    "trap_rate": "Trap rate",
    "trust_threshold": "Trust threshold",
    "min_trap_answers": "Trap answers before trust counts",
    "completion_code": "Completion code",
    "screen_out_code": "Screen-out code",
    "no_consent_code": "No-consent code",
    "minutes_estimate": "Time it takes (minutes, shown before consent)",
    "pay_text": "What it pays (shown before consent)",
    "is_open": "Open to workers",
    "listening_check": "Refuse answers without listening (checked by the server)",
    "min_clips_per_list": "Listening check: clips of each list to play",
    "min_seconds_on_task": "Listening check: seconds on each task at least",
    "fast_answer_seconds": "Flag answers faster than (seconds)",
    "stop_after_fast_answers": "Stop a worker after this many fast answers (0: never)",
    "min_work_answers": "Answers after the quiz before the completion code",
    "trust_check_every": "Stop for low trust only every this many work answers",
    "per_worker_codes": "A completion code per worker (not on Prolific)",
    "bonus_per_answer": "Recommended bonus per answer beyond that minimum",
    "headphone_check": "Screen for headphones after consent (with a volume calibration)",
    "headphone_pass_mark": HEADPHONE_PASS_MARK_LABEL,
    "practice_length": "Practice tasks before the quiz (0: none)",
}

PREFERENCE_HELP = {
    "listening_check": "Refuse an answer until the server has sent enough of the query and of "
    "the clips each list must be played (below), and the seconds on each task have passed.",
    "practice_length": "Tasks from the practice pool with the expected answer shown after "
    "each, so workers learn the page and the listening rule; they never count.",
    "headphone_check": "Six trials of three tones; over loudspeakers the quietest cannot be "
    "told (Woods et al. 2017). A worker below the pass mark gets the screen-out code.",
}
