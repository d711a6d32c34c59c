"""The migration history of the models that lived in ``judging`` until issue 30.

Every existing database recorded ``judging``'s migrations, and the evaluation
app's first migrations depend on them: they stay here, in an app that owns no
model any more. Its last migration hands each model's state to its app (tables
keep their names) and renames content types and trash rows."""
