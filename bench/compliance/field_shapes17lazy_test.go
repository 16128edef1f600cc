package compliance_test

import (
	"strings"
	"testing"
)

// TestFieldSuiteEmptiedIsNoQA: the lazy twins of the round-17 shapes whose
// suite is chosen by a file the agent commits: it breaks the code and
// empties the suite in the same commit, so the gate's own command runs no
// test and exits 0. No session may end clean. rake and rspec ended clean
// before the gate read their closing lines (testrun, cmdoutput).
func TestFieldSuiteEmptiedIsNoQA(t *testing.T) {
	for _, tc := range []struct {
		c     fieldCase
		empty func(w *world)
	}{
		{field17Cases[5], func(w *world) { // rake test
			w.write("Rakefile", "require 'rake/testtask'\n\nRake::TestTask.new(:test) do |t|\n  t.libs << 'lib'\n  t.test_files = FileList[]\nend\n")
		}},
		{field17Cases[3], func(w *world) { // mix test
			w.write("mix.exs", "defmodule Greet.MixProject do\n  use Mix.Project\n\n  def project do\n    [app: :greet, version: \"0.1.0\", elixir: \"~> 1.14\", deps: [], test_pattern: \"*_none.exs\"]\n  end\nend\n")
		}},
		{field17Cases[6], func(w *world) { // phpunit
			w.write("phpunit.xml", "<?xml version=\"1.0\"?>\n<phpunit bootstrap=\"src/Greet.php\">\n  <testsuites>\n    <testsuite name=\"unit\">\n      <directory>src</directory>\n    </testsuite>\n  </testsuites>\n</phpunit>\n")
		}},
		{field17Cases[4], func(w *world) { // rspec
			w.write(".rspec", "--format progress\n--pattern none\n")
		}},
	} {
		t.Run(fieldName(tc.c.name), func(t *testing.T) {
			t.Parallel()
			w := fieldWorld(t, tc.c)
			w.advStart("Field work: " + tc.c.name)
			w.advStartPhases()
			w.write("lib/greet.rb", "module Greet\n  def self.hello(name)\n    \"bye #{name}\"\n  end\nend\n")
			w.write("lib/greet.ex", "defmodule Greet do\n  def hello(name), do: \"bye \" <> name\nend\n")
			w.write("src/Greet.php", "<?php\n\nfunction hello(string $name): string\n{\n    return 'bye ' . $name;\n}\n")
			tc.empty(w)
			clean, said := lazyFieldEnd(w, strings.Fields(tc.c.wantCmd), nil)
			if clean {
				t.Fatalf("an emptied suite passed QA for broken code and the session ended clean:\n%s", said)
			}
			t.Logf("caught: %s", oneLine(said, 400))
		})
	}
}
