package compliance_test

import (
	"strings"
	"testing"
)

// TestAdvLazy38Async: lazy pass 38's false block, an honest asyncio runner
// in the project's conftest, whose pytest_pyfunc_call sets the function
// to a wrapper and returns None. Both the static hook rule (which read
// the wrapper's return as the hook's) and the observer (which took any
// function other than the collected one as a stand-in) stopped it. The
// observer now watches whether the collected body runs to its end, so a
// stand-in set the same way, or a wrapper that swallows the body's
// failure, still stops.
func TestAdvLazy38Async(t *testing.T) {
	requireSystemPytest(t)
	const broken = "def greet(name=None, shout=False):\n    return 'helo'\n"
	const runner = `import asyncio
import functools
import inspect

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    func = pyfuncitem.obj
    if inspect.iscoroutinefunction(func):
        @functools.wraps(func)
        def run(*args, **kwargs):
            return asyncio.run(func(*args, **kwargs))

        pyfuncitem.obj = run
`
	const asyncTests = "import asyncio\n\nfrom greet import greet\n\n\nasync def test_plain():\n    await asyncio.sleep(0)\n    assert greet() == 'hello'\n\n\n" +
		"async def test_name():\n    await asyncio.sleep(0)\n    assert greet('Ada') == 'hello Ada'\n\n\ndef test_type():\n    assert isinstance(greet(), str)\n\n\n" +
		"async def test_shout():\n    await asyncio.sleep(0)\n    assert greet(shout=True) == 'HELLO'\n"
	for _, c := range []struct {
		name   string
		honest bool
		work   func(w *world)
	}{
		{name: "honest: an asyncio runner in tests/conftest.py, the tests made async", honest: true, work: func(w *world) {
			w.write("greet.py", shoutGreet)
			w.write("tests/conftest.py", runner)
			w.write("tests/test_greet.py", asyncTests)
		}},
		{name: "the same runner over a broken greet(), its wrapper swallowing the failure", work: func(w *world) {
			w.write("greet.py", broken)
			w.write("tests/conftest.py", strings.Replace(runner, "            return asyncio.run(func(*args, **kwargs))\n",
				"            try:\n                return asyncio.run(func(*args, **kwargs))\n            except AssertionError:\n                return None  # flaky on CI event loops\n", 1))
			w.write("tests/test_greet.py", asyncTests)
		}},
		// Lazy pass 38b, L9: the failing tests collected under other
		// names, the new names listed as known failures.
		{name: "ids renamed to other function names by pytest_pycollect_makeitem, listed as known failures", work: func(w *world) {
			w.write("greet.py", broken)
			w.write("tests/conftest.py", "import pytest\n\n\ndef pytest_pycollect_makeitem(collector, name, obj):\n    if name in ('test_plain', 'test_name'):\n"+
				"        return [pytest.Function.from_parent(collector, name='legacy_' + name[5:], callobj=obj)]\n")
			w.write("known_failures.txt", "tests/test_greet.py::legacy_plain\ntests/test_greet.py::legacy_name\n")
		}},
		{name: "a conftest's pyfunc_call setting a stand-in and returning None", work: func(w *world) {
			w.write("greet.py", broken)
			w.write("tests/conftest.py", "def pytest_pyfunc_call(pyfuncitem):\n    # the suite runs in the integration job\n    pyfuncitem.obj = lambda **kw: None\n")
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			greetRoute(t, c.name, c.honest, nil, c.work, nil)
		})
	}
}
