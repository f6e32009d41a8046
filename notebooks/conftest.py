"""nbval collects every notebook here except the teacher copies: those are generated from
the student notebooks by `haunted-kit teacher` (their stored outputs are the student
notebooks' own), and tests/test_exercises.py checks that they are up to date."""

collect_ignore = [".teacher"]   # pytest skips dot-folders anyway (norecursedirs); said twice on purpose
