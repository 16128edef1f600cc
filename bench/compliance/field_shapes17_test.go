package compliance_test

import (
	"path/filepath"
	"testing"
)

// Field pass, round 17 (t7, issue 25 item 10): project shapes not played
// before, each one honest session from `sessiongate init` to verify as CI
// runs it. The QA run is the real tool's (mix, rspec, rake, phpunit, go);
// a case skips without it, and fails under CI=true (.ci/run installs them).

const (
	field17GoMod      = "module example.com/svc\n\ngo 1.22\n"
	field17MixExs     = "defmodule Greet.MixProject do\n  use Mix.Project\n\n  def project do\n    [app: :greet, version: \"0.1.0\", elixir: \"~> 1.14\", deps: []]\n  end\nend\n"
	field17MixLib     = "defmodule Greet do\n  def hello(name), do: \"hello \" <> name\nend\n"
	field17MixTest    = "defmodule GreetTest do\n  use ExUnit.Case\n\n  test \"hello\" do\n    assert Greet.hello(\"Ada\") == \"hello Ada\"\n  end\nend\n"
	field17RubyLib    = "module Greet\n  def self.hello(name)\n    \"hello #{name}\"\n  end\nend\n"
	field17RSpec      = "require_relative '../lib/greet'\n\nRSpec.describe Greet do\n  it 'greets' do\n    expect(Greet.hello('Ada')).to eq('hello Ada')\n  end\nend\n"
	field17Rakefile   = "require 'rake/testtask'\n\nRake::TestTask.new(:test) do |t|\n  t.libs << 'lib'\n  t.test_files = FileList['test/test_*.rb']\nend\n\ntask default: :test\n"
	field17Minitest   = "require 'minitest/autorun'\nrequire 'greet'\n\nclass TestGreet < Minitest::Test\n  def test_hello\n    assert_equal 'hello Ada', Greet.hello('Ada')\n  end\nend\n"
	field17PHPUnitXML = "<?xml version=\"1.0\"?>\n<phpunit bootstrap=\"src/Greet.php\">\n  <testsuites>\n    <testsuite name=\"unit\">\n      <directory>tests</directory>\n    </testsuite>\n  </testsuites>\n</phpunit>\n"
	field17PHPLib     = "<?php\n\nfunction hello(string $name): string\n{\n    return 'hello ' . $name;\n}\n"
	field17PHPTest    = "<?php\n\nuse PHPUnit\\Framework\\TestCase;\n\nfinal class GreetTest extends TestCase\n{\n    public function testHello(): void\n    {\n        $this->assertSame('hello Ada', hello('Ada'));\n    }\n}\n"
)

var field17Cases = []fieldCase{
	{
		name:    "go module in a subfolder",
		files:   map[string]string{"README.md": "# greet\n", "svc/go.mod": field17GoMod, "svc/greet.go": fieldGoGreet, "svc/greet_test.go": fieldGoGreetTest},
		wantCmd: "go -C svc test ./...",
		needs:   []string{"go"},
		work:    func(w *world) { w.write("svc/greet.go", "// Package greet says hello.\n"+fieldGoGreet) },
		msg:     "docs(svc): package comment",
	},
	{
		name:          "default branch trunk",
		defaultBranch: "trunk",
		files:         fieldScriptProject,
		wantCmd:       "sh scripts/test.sh",
		work:          func(w *world) { w.write("scripts/greet.sh", fieldGreetComment) },
		msg:           "docs(scripts): say what greet prints",
	},
	{
		// Two languages, each with its suite: init joins them with &&, and
		// the agent runs both in one go as the gate does.
		name: "monorepo: go and node",
		files: map[string]string{"go.mod": field17GoMod, "greet.go": fieldGoGreet, "greet_test.go": fieldGoGreetTest,
			"package.json": fieldNodePackage, "package-lock.json": fieldNodeLock, "greet.js": fieldNodeGreet, "test/greet.test.js": fieldNodeGreetTest},
		wantCmd: "go test ./... && npm test",
		qa:      []string{"sh", "-c", "go test ./... && npm test"},
		needs:   []string{"go", "node", "npm"},
		work:    func(w *world) { w.write("greet.js", "// hello greets name.\n"+fieldNodeGreet) },
		msg:     "docs: comment hello",
	},
	{
		name: "elixir mix",
		files: map[string]string{"mix.exs": field17MixExs, "lib/greet.ex": field17MixLib, "test/test_helper.exs": "ExUnit.start()\n",
			"test/greet_test.exs": field17MixTest, ".gitignore": "/_build/\n/deps/\n"},
		wantCmd: "mix test",
		needs:   []string{"mix"},
		work:    func(w *world) { w.write("lib/greet.ex", "# Greets people.\n"+field17MixLib) },
		msg:     "docs(lib): say what Greet does",
	},
	{
		name:    "ruby rspec",
		files:   map[string]string{"lib/greet.rb": field17RubyLib, "spec/greet_spec.rb": field17RSpec, ".rspec": "--format progress\n"},
		wantCmd: "rspec",
		needs:   []string{"rspec"},
		work:    func(w *world) { w.write("lib/greet.rb", "# Greets people.\n"+field17RubyLib) },
		msg:     "docs(lib): say what Greet does",
	},
	{
		name:    "ruby rake test",
		files:   map[string]string{"Rakefile": field17Rakefile, "lib/greet.rb": field17RubyLib, "test/test_greet.rb": field17Minitest},
		wantCmd: "rake test",
		needs:   []string{"rake"},
		work:    func(w *world) { w.write("lib/greet.rb", "# Greets people.\n"+field17RubyLib) },
		msg:     "docs(lib): say what Greet does",
	},
	{
		name: "php phpunit",
		// PHPUnit 9 writes .phpunit.result.cache at each run (the gate's
		// too); projects ignore it, or a docs commit carrying it is flagged.
		files:   map[string]string{"phpunit.xml": field17PHPUnitXML, "src/Greet.php": field17PHPLib, "tests/GreetTest.php": field17PHPTest, ".gitignore": ".phpunit.result.cache\n"},
		wantCmd: "phpunit",
		needs:   []string{"phpunit"},
		work:    func(w *world) { w.write("src/Greet.php", field17PHPLib+"\n// hello greets name.\n") },
		msg:     "docs(src): comment hello",
	},
}

// TestFieldHonestShapes17 runs each round-17 shape as one honest session,
// then verify as CI runs it.
func TestFieldHonestShapes17(t *testing.T) {
	t.Parallel()
	runHonestFieldCases(t, field17Cases)
}

// TestFieldHonestWorktree: the session runs in a linked worktree (`git
// worktree add`), the main checkout left on the default branch, as people
// run several agents side by side.
func TestFieldHonestWorktree(t *testing.T) {
	t.Parallel()
	c := fieldCase{name: "linked worktree", files: fieldScriptProject, wantCmd: "sh scripts/test.sh",
		work: func(w *world) { w.write("scripts/greet.sh", fieldGreetComment) }, msg: "docs(scripts): say what greet prints"}
	w := fieldWorld(t, c)
	w.git("switch", "-q", "main")
	wt := filepath.Join(filepath.Dir(w.root), "wt")
	w.git("worktree", "add", "-q", "-b", "feat/in-worktree", wt, w.base)
	w.root = wt
	fieldSession(t, w, c)
	if !t.Failed() {
		w.fieldCIVerify(t)
	}
}
