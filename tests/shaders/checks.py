"""Pass/fail counting shared by the shader tests (test_compiler.py, test_diff.py, test_agreement.py).

A Checks object counts the checks of one test program; calling it records one check and prints the failed
ones; summary() prints '<name>: N passed, M failed' and returns the exit status (1 if any check failed or
if no check ran: a test that compares nothing fails).
"""


class Checks:
    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = 0

    def __call__(self, cond, what, detail=''):
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print('FAIL: %s %s' % (what, detail))
        return bool(cond)

    def summary(self):
        print('%s: %d passed, %d failed' % (self.name, self.passed, self.failed))
        if self.passed + self.failed == 0:
            print('FAIL: %s ran no check' % self.name)
            return 1
        return 1 if self.failed else 0
