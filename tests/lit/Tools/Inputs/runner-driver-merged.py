# Prints what the differential runners' --update writes after a run of
# named modules (runner-driver-update.test).
import sys

sys.path.insert(0, sys.argv[1])
import runner_driver

expected = {"a.spv": "agree", "b.spv": "race", "c.spv": "undefined"}
results = {"b.spv": ("agree", "", []), "d.spv": ("disagree", "x", [])}
for module, line in sorted(runner_driver.merged(expected, results).items()):
    print("%s %s" % (module, line[0]))
