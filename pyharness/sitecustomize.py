# sessiongate's run harness (package pyharness). A gate's command runs
# with this folder first on PYTHONPATH, so every Python process of the run
# loads this file before any of the project's code. A test runner's
# process (python -m unittest, pytest) reports to files sessiongate reads
# after the run, never to the run's output:
#   PID.start  written when it starts;
#   PID.end    written at its normal exit, with what it found replaced
#              then: unittest's functions and classes (however the
#              project's code spelled the assignment: setattr with a
#              computed name, getattr chains, mock.patch.object),
#              sys.exit, AssertionError.
#   PID.pytest a pytest's tests by node id, from an observer plugin
#              (_sg_pytest), and "u" when it never saw the session end.
# A runner with a start and no end left by os._exit or exec: its exit
# status is not the tests'. The same file is also the usercustomize.py of
# a user base the gate names (PYTHONUSERBASE): a command that sets its own
# PYTHONPATH (`PYTHONPATH=src pytest`) drops this folder, not the user
# site, which then puts the real one (~/.local) back where it stood. Every step is guarded: the harness never
# changes what the run does. (CPython's audit hooks do not see a class's
# attributes set, so the check is at exit, in the last atexit handler.)
import sys as _sg_sys

_SG_REPORT = __SG_REPORT__
_SG_ROOT = __SG_ROOT__
_SG_KIND = __SG_KIND__  # "site" or "user": which module this file is


def _sg_install(report, root):
    import os
    pid = os.getpid()
    frameworks = ("unittest", "_pytest", "pytest", "nose2")

    def write(suffix, text):
        try:
            with open(os.path.join(report, "%d.%s" % (os.getpid(), suffix)), "a", encoding="utf-8") as f:
                f.write(text)
        except Exception:
            pass

    argv = list(getattr(_sg_sys, "orig_argv", None) or [])
    runner = None
    skip = False
    for i, a in enumerate(argv[1:], 1):
        if skip:
            skip = False
            continue
        if a in ("-W", "-X"):
            skip = True  # the option's value
            continue
        if a == "-m" and i + 1 < len(argv):
            if argv[i + 1].split(".")[0] in frameworks:
                runner = argv[i + 1]
            break
        if a == "-c" or not a.startswith("-"):
            base = os.path.basename(a)
            if base in ("pytest", "py.test", "nose2"):
                runner = base
            break
    if runner is None:
        return
    write("start", " ".join(argv) + "\n")
    pytest_run = runner.split(".")[0] in ("pytest", "_pytest", "py.test")
    finished = []
    if pytest_run:
        _sg_pytest(write, finished, root)
    exit0 = _sg_sys.exit

    def rel(fn):
        if fn.startswith(root + os.sep):
            return os.path.relpath(fn, root)
        return fn

    def origin(f):
        # Where the stand-in was written: (the project's file and line,
        # the file alone).
        code = getattr(f, "__code__", None)
        if isinstance(f, type):
            mod = _sg_sys.modules.get(getattr(f, "__module__", ""))
            fn, line = getattr(mod, "__file__", None), None
        elif code is not None:
            fn, line = code.co_filename, code.co_firstlineno
        else:
            fn = None
        if not fn:
            return "a %s" % type(f).__name__, ""
        fn = rel(fn)
        return (fn if line is None else "%s:%d" % (fn, line)), fn

    # os._exit ends the process past every atexit handler: note who
    # called it, then call it. (Honest suites use it too, to get past a
    # thread that hangs the exit; sessiongate judges only a call from a
    # file the session changed.)
    real_exit = os._exit

    def _exit(code):
        try:
            if os.getpid() == pid:
                fr = _sg_sys._getframe(1)
                fn = rel(fr.f_code.co_filename)
                write("exit", "%s\t%s:%d\t%s\n" % (code, fn, fr.f_lineno, fn))
        except Exception:
            pass
        real_exit(code)

    os._exit = _exit

    def at_exit():
        if os.getpid() != pid:
            return  # a forked child: not the runner
        found = []

        def add(what, f):
            text, fn = origin(f)
            found.append("%s (by %s)\t%s" % (what, text, fn))

        try:
            import builtins
            if _sg_sys.exit is not exit0:
                add("sys.exit", _sg_sys.exit)
            if builtins.AssertionError.__module__ != "builtins":
                add("builtins.AssertionError", builtins.AssertionError)
            ut = _sg_sys.modules.get("unittest")
            if ut is not None:
                utdir = os.path.dirname(ut.__file__) + os.sep
                for n in getattr(ut, "__all__", ()):
                    o = vars(ut).get(n)  # not getattr: no lazy import at exit
                    m = getattr(o, "__module__", None)
                    if isinstance(m, str) and m.split(".")[0] != "unittest":
                        add("unittest." + n, o)
                    if not isinstance(o, type):
                        continue
                    for k, v in list(vars(o).items()):
                        f = getattr(v, "__func__", v)
                        for _ in range(4):  # @contextmanager's wrapper
                            f = getattr(f, "__wrapped__", f)
                        if isinstance(f, type) or not callable(f):
                            continue  # settings (maxDiff), failureException below
                        code = getattr(f, "__code__", None)
                        if code is None or not code.co_filename.startswith(utdir):
                            add("unittest.%s.%s" % (n, k), f)
                fe = getattr(ut.TestCase, "failureException", AssertionError)
                if fe is not AssertionError:
                    add("unittest.TestCase.failureException", fe)
        except Exception:
            pass
        write("end", "".join(x + "\n" for x in found))
        # A pytest whose observer never saw its session end: unloaded
        # (-p no:), unregistered, or the session cut short. (A program
        # named pytest that never loaded pytest is no pytest run.)
        if pytest_run and not finished and "_pytest.config" in _sg_sys.modules and not any(a in ("--version", "-V", "--help", "-h") for a in argv):
            write("pytest", "u\n")

    import atexit
    atexit.register(at_exit)


def _sg_pytest(write, finished, root):
    # pytest's own hooks say what happened to each test, by node id, to
    # PID.pytest: "c\tID" collected (before any conftest drops items),
    # "d\tID" deselected, "r\tOUTCOME\tID" each report (passed, failed,
    # notrun: skipped or expected to fail), written when the session
    # ends. The observer is registered as the first plugin manager is
    # made (an import hook on _pytest.config), under one name, so a
    # `-p no:` of it is seen: no end, a "u" at exit.
    import os
    import sys

    def clean(nodeid):
        return str(nodeid).replace("\t", " ").replace("\n", " ")

    # What the observer holds lives in this closure, not on the plugin
    # object (`pluginmanager.get_plugin(...)` hands the project's code
    # the plugin).
    lines = []
    codes = {}  # node id: the test function's code at collection
    raised = {}  # node id: the last call phase raised
    swapped = set()  # node ids whose function was replaced after collection
    plain = set()  # node ids of tests pytest's own pytest_pyfunc_call runs
    aliases = {}  # node id: the id its function's own name gives, where it differs
    attempts = {}  # node id: this call's reached, raised, watched, done

    def code_of(f):
        return getattr(getattr(f, "__func__", f), "__code__", None)

    def project_code(c):
        fn = c.co_filename
        return fn.startswith(root + os.sep) and "site-packages" not in fn

    def same_function(f, want):
        # A runner's own wrapper (pytest-asyncio's) keeps the function as
        # __wrapped__. A stand-in is no wrapper, whatever __wrapped__ it
        # was given: one written in the project, one without code of its
        # own (a functools.partial), or one whose code names a file that
        # is not there (compiled under an installed package's name).
        for _ in range(8):
            c = code_of(f)
            if c is want:
                return True
            if c is None or project_code(c) or not os.path.isfile(c.co_filename):
                return False
            f = getattr(f, "__wrapped__", None)
            if f is None:
                return False
        return False

    # Whether the collected function's body ran to its end, when pytest
    # calls something else in its place (a runner's asyncio wrapper set in
    # the project's conftest, or a stand-in): a profile function, set for
    # that one call only, watches the body's frame. A return at a return
    # instruction is the body finishing; at any other (a raise) it is not,
    # nor is a suspension at an await.
    import dis
    import threading
    rets = set(dis.opmap[n] for n in ("RETURN_VALUE", "RETURN_CONST") if n in dis.opmap)

    # One profile function and one tracer, reading the watch in force
    # from a slot: a thread started under one test's watch keeps them (a
    # module-level ThreadPoolExecutor's worker runs the next tests too:
    # round 40's re-check, HY7), and sees each later test's watch.
    cur = {"want": None, "done": None, "old": None}

    def ended(frame):
        try:
            if frame.f_code.co_code[frame.f_lasti] in rets:
                cur["done"].append(True)
        except Exception:
            pass

    def prof(frame, event, arg):
        if event == "return" and cur["want"] is not None and frame.f_code is cur["want"]:
            ended(frame)
        old = cur["old"]
        if old is not None:
            old(frame, event, arg)

    # A tracer too, where none is set (no coverage, no debugger): a
    # conftest that runs the test under cProfile replaces the profile
    # function for the call (round 39's re-check, HY3), not the tracer.
    # It asks for the body's frame's events only.
    def local(frame, event, arg):
        if event == "return" and cur["want"] is not None and frame.f_code is cur["want"]:
            ended(frame)
        return local

    def tracer(frame, event, arg):
        if cur["want"] is not None and frame.f_code is cur["want"]:
            return local
        return None

    def watch(want):
        old = sys.getprofile()
        old_t = getattr(threading, "getprofile", lambda: None)()
        traced = sys.gettrace() is None and getattr(threading, "gettrace", lambda: None)() is None
        done = []
        cur.update(want=want, done=done, old=old if old is not prof else None)
        sys.setprofile(prof)
        threading.setprofile(prof)
        if traced:
            sys.settrace(tracer)
            threading.settrace(tracer)

        def stop():
            cur.update(want=None, done=None)
            sys.setprofile(old)
            threading.setprofile(old_t)
            if traced:
                sys.settrace(None)
                threading.settrace(None)
            return bool(done)
        return stop

    def arm(a, want):
        if "stop" not in a:
            a["stop"] = watch(want)

    def disarm(a):
        stop = a.pop("stop", None)
        if stop is not None:
            a["watched"] = True
            a["done"] = stop()

    def at_call(real):
        # In place of pytest's own pytest_pyfunc_call, the one that calls
        # the function: whatever ran before it (a conftest's hook, a
        # fixture) has set the function by now, and what it raises is
        # seen here before any hookwrapper can drop it.
        def pytest_pyfunc_call(*args):
            a = {}
            try:
                item = args[0]
                nid = clean(item.nodeid)
                a = attempts.setdefault(nid, {})
                a["reached"] = True
                want = codes.get(nid)
                if want is not None and not same_function(item.obj, want):
                    arm(a, want)
            except Exception:
                pass
            try:
                return real(*args)
            except BaseException:
                a["raised"] = True
                raise
            finally:
                disarm(a)
        return pytest_pyfunc_call

    def body_ran(nid):
        # A plain test's call said "passed": pytest's own call ran its
        # body without a raise, or (a runner plugin answering for an async
        # test) the watched body ran to its end. Not reached at all: the
        # hook answered before (a conftest's tryfirst hook returning True)
        # or Function.runtest was replaced.
        if nid not in plain:
            return True
        a = attempts.pop(nid, None)
        if a is None:
            return False
        disarm(a)
        if a.get("raised"):
            return False
        if a.get("watched"):
            return a.get("done", False)
        return a.get("reached", False)

    ours = ("python", "sessiongate-observer", "sessiongate-observer-call")

    def others_answer(pm, want):
        # Another implementation that may run this test and answer: any,
        # for an async or generator test (anyio's plugin, loaded wherever
        # anyio is installed, answers for those); for a plain one only the
        # project's own (a conftest's thread runner), so a sync suite
        # beside anyio is not watched.
        coro = want.co_flags & 0x3A0  # CO_COROUTINE, CO_GENERATOR, CO_ITERABLE_COROUTINE, CO_ASYNC_GENERATOR (twisted's, tornado's tests)
        for impl in pm.hook.pytest_pyfunc_call.get_hookimpls():
            if impl.hookwrapper or getattr(impl, "wrapper", False) or impl.plugin_name in ours:
                continue
            if coro:
                return True
            c = code_of(impl.function)
            if c is not None and project_code(c):
                return True
        return False

    # A test's id by its function's own file and name (lazy pass 38b, L9:
    # pytest_pycollect_makeitem collected test_plain as legacy_plain, and
    # the new id was listed as a known failure). Where that differs from
    # the node id and no node of the run has it, the run's lines are noted
    # under it too, so the function that passed at the start is still seen.
    def func_id(nid):
        k = nid.find("::")
        if k < 0 or not nid.endswith("]"):
            return nid
        i = nid.find("[", k)
        return nid[:i] if i > k else nid

    def own_id(item, base, fid):
        # None when the node id is already the function's own (the fast
        # path: string ends, no path arithmetic per test).
        f = item.obj
        for _ in range(8):
            w = getattr(f, "__wrapped__", None)
            if w is None:
                break
            f = w
        c = code_of(f)
        if c is None:
            return None
        name = getattr(c, "co_qualname", c.co_name)
        if "<" in name:
            return None  # a lambda, a function made in another
        fn = c.co_filename
        if not fn.startswith(base + os.sep):
            return None  # not the project's file
        tail = "::" + name.replace(".", "::")
        if fid.endswith(tail) and fn.endswith(os.sep + fid[:-len(tail)].replace("/", os.sep)):
            return None
        return os.path.relpath(fn, base).replace(os.sep, "/") + "::" + name.replace(".", "::")

    rootdir = []

    def root_of(item):
        if not rootdir:
            rootdir.append(str(item.config.rootpath))
        return rootdir[0]

    def is_plain(item):
        # A test pytest's Function runs through pytest_pyfunc_call: not a
        # unittest case, nor a plugin's subclass with its own runtest.
        py = sys.modules.get("_pytest.python")
        fn = getattr(py, "Function", None)
        if fn is None or not isinstance(item, fn):
            return False
        for cls in type(item).__mro__:
            if cls is fn:
                return True
            if "runtest" in vars(cls):
                return False
        return False

    wrapped = []

    def wrap_call(pm):
        try:
            for impl in pm.hook.pytest_pyfunc_call.get_hookimpls():
                if impl.plugin_name == "python" and not wrapped:
                    impl.function = at_call(impl.function)
                    wrapped.append(True)
        except Exception:
            pass

    def observer(hookimpl):
        class Observer:
            @hookimpl(tryfirst=True)
            def pytest_configure(self, config):
                wrap_call(config.pluginmanager)

            def pytest_itemcollected(self, item):
                nid = clean(item.nodeid)
                lines.append("c\t%s\n" % nid)
                try:
                    c = code_of(item.obj)
                    if c is not None:
                        codes[nid] = c
                    if wrapped and is_plain(item):
                        plain.add(nid)
                    fid = func_id(nid)
                    a = own_id(item, root_of(item), fid)
                    if a is not None and clean(a) != fid:
                        aliases[nid] = clean(a)
                except Exception:
                    pass

            def pytest_deselected(self, items):
                for it in items:
                    lines.append("d\t%s\n" % clean(it.nodeid))

            # Where pytest's own pytest_pyfunc_call could not be wrapped
            # (another pytest): the function about to be called is the
            # one collected (a fixture's `request.node.obj = ...` runs
            # the test's body no more).
            # Where pytest's own pytest_pyfunc_call could not be wrapped
            # (another pytest): the function about to be called is the one
            # collected (a fixture's `request.node.obj = ...`).
            @hookimpl(tryfirst=True)
            def pytest_pyfunc_call(self, pyfuncitem):
                try:
                    nid = clean(pyfuncitem.nodeid)
                    want = codes.get(nid)
                    if not wrapped and want is not None and not same_function(pyfuncitem.obj, want):
                        swapped.add(nid)
                except Exception:
                    pass

            # Whether the call raised, before any report is made of it: a
            # report that then says "passed" was rewritten (however the
            # code spelled it).
            # (After the unittest plugin's, which sets call.excinfo.)
            @hookimpl(tryfirst=True)
            def pytest_runtest_makereport(self, item, call):
                if call.when == "call":
                    nid = clean(item.nodeid)
                    raised[nid] = raised.get(nid, False) or call.excinfo is not None
                    # A watch pytest's own call did not end (another
                    # hook answered) ends with the call phase.
                    a = attempts.get(nid)
                    if a is not None:
                        disarm(a)

            def pytest_runtest_logreport(self, report):
                nid = clean(report.nodeid)
                if report.failed:
                    o = "failed"
                elif report.skipped or hasattr(report, "wasxfail"):
                    o = "notrun"
                elif report.when == "call" and report.passed:
                    o = "notrun" if raised.get(nid) or nid in swapped or not body_ran(nid) else "passed"
                else:
                    return
                lines.append("r\t%s\t%s\n" % (o, nid))

            def pytest_sessionfinish(self, session):
                if aliases:
                    try:
                        ids = set()
                        for l in lines:
                            if l.startswith("c\t"):
                                ids.add(func_id(l[2:-1]))
                        # One verdict an alias: the best of its nodes' (a
                        # base class's test run by two subclasses).
                        best = {}
                        rank = {"notrun": 1, "failed": 2, "passed": 3}
                        for l in lines:
                            f = l[:-1].split("\t")
                            a = aliases.get(f[-1])
                            if a is None or a in ids:
                                continue
                            o = f[1] if f[0] == "r" else ""
                            if rank.get(o, 0) >= rank.get(best.get(a, ""), 0):
                                best[a] = o
                        for a, o in best.items():
                            lines.append("c\t%s\n" % a)
                            if o:
                                lines.append("r\t%s\t%s\n" % (o, a))
                    except Exception:
                        pass
                write("pytest", "".join(lines))
                del lines[:]
                # The call observer unloaded (-p no:) is the observer
                # unloaded: a "u" at exit.
                if session.config.pluginmanager.get_plugin("sessiongate-observer-call") is not None:
                    finished.append(True)

        # The same, as the outermost wrapper: before a project's
        # hookwrapper can clear call.excinfo (each call's attempt anew).
        class Call:
            @hookimpl(hookwrapper=True, tryfirst=True)
            def pytest_runtest_makereport(self, item, call):
                if call.when == "call":
                    raised[clean(item.nodeid)] = call.excinfo is not None
                yield

            # Each call's attempt starts here, before any implementation
            # (a hookwrapper runs before them all, a tryfirst conftest
            # hook's included). Where another plugin or a conftest has its
            # own pytest_pyfunc_call, the body is watched from here: it may
            # run the test and answer (anyio's runs an async test; a
            # conftest runs it in a thread or under a context manager),
            # and pytest's is then never called. Otherwise nothing is
            # watched, and a call pytest's never made is none.
            @hookimpl(hookwrapper=True, tryfirst=True)
            def pytest_pyfunc_call(self, pyfuncitem):
                a = {}
                try:
                    nid = clean(pyfuncitem.nodeid)
                    a = attempts[nid] = {}
                    want = codes.get(nid)
                    if wrapped and want is not None and others_answer(pyfuncitem.config.pluginmanager, want):
                        arm(a, want)
                except Exception:
                    pass
                yield
                disarm(a)

        return Observer(), Call()

    registered = []

    def patch(mod):
        pm = mod.PytestPluginManager
        init0 = pm.__init__

        def __init__(self, *a, **k):
            init0(self, *a, **k)
            if not registered:  # the run's own; not a pytester's inner run
                registered.append(True)
                try:
                    import pluggy
                    o, c = observer(pluggy.HookimplMarker("pytest"))
                    self.register(o, "sessiongate-observer")
                    self.register(c, "sessiongate-observer-call")
                except Exception:
                    pass

        pm.__init__ = __init__

    class Loader:
        def __init__(self, real):
            self._real = real

        def create_module(self, spec):
            return self._real.create_module(spec)

        def exec_module(self, module):
            self._real.exec_module(module)
            try:
                patch(module)
            except Exception:
                pass

        def __getattr__(self, name):
            return getattr(self._real, name)

    class Finder:
        def find_spec(self, name, path=None, target=None):
            if name != "_pytest.config":
                return None
            try:
                sys.meta_path.remove(self)
            except ValueError:
                pass
            for f in sys.meta_path:
                fs = getattr(f, "find_spec", None)
                spec = fs(name, path, target) if fs is not None else None
                if spec is not None:
                    if spec.loader is not None:
                        spec.loader = Loader(spec.loader)
                    return spec
            return None

    sys.meta_path.insert(0, Finder())


# Once per process: sitecustomize runs first, usercustomize after it.
if _SG_REPORT and _sg_sys.version_info >= (3, 10) and not getattr(_sg_sys, "_sessiongate_harness", False):  # orig_argv
    try:
        _sg_sys._sessiongate_harness = True
        _sg_install(_SG_REPORT, _SG_ROOT)
    except Exception:
        pass
# The paths live on in the closures only: the project's code finds no
# report folder to write into on this module.
del _sg_install, _sg_pytest, _SG_REPORT, _SG_ROOT


def _sg_chain():
    # The sitecustomize this one stands in front of (Debian's, a venv's).
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    for d in _sg_sys.path:
        if not d or os.path.abspath(d) == here:
            continue
        p = os.path.join(d, "sitecustomize.py")
        if os.path.isfile(p):
            with open(p, "rb") as f:
                code = compile(f.read(), p, "exec")
            exec(code, {"__name__": "sitecustomize", "__file__": p})
            return


def _sg_user():
    # This folder stands where Python put the user site: put the real one
    # (~/.local/lib/pythonX.Y/site-packages, what `pip install --user`
    # wrote; the gate gives no PYTHONUSERBASE of the caller's) there in its
    # place, its .pth files read, and run its usercustomize.
    import os
    import site
    here = os.path.dirname(os.path.abspath(__file__))
    base = os.path.expanduser(os.path.join("~", ".local"))
    real = os.path.join(base, "lib", "python%d.%d" % _sg_sys.version_info[:2], "site-packages")
    site.USER_BASE, site.USER_SITE = base, real
    at = None
    for i, d in enumerate(_sg_sys.path):
        if d and os.path.abspath(d) == here:
            at = i
            break
    if at is not None:
        del _sg_sys.path[at]
    if not os.path.isdir(real):
        return
    before = set(_sg_sys.path)
    site.addsitedir(real)
    added = [d for d in _sg_sys.path if d not in before]
    for d in added:
        _sg_sys.path.remove(d)
    pos = len(_sg_sys.path) if at is None else at
    _sg_sys.path[pos:pos] = added
    p = os.path.join(real, "usercustomize.py")
    if os.path.isfile(p):
        with open(p, "rb") as f:
            code = compile(f.read(), p, "exec")
        exec(code, {"__name__": "usercustomize", "__file__": p})


try:
    if _SG_KIND == "site":
        _sg_chain()
    else:
        _sg_user()
except Exception:
    pass
del _sg_chain, _sg_user
