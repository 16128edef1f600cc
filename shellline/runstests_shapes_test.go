package shellline

import "testing"

// TestRunsTestsShapes: the commands init picks for the round-17 project
// shapes are test runs (a QA phase without a command takes only such a
// run), and their look-alikes are not.
func TestRunsTestsShapes(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"go -C svc test ./...", true},
		{"go -C test build ./...", false}, // the folder is -C's value
		{"bundle exec rspec", true},
		{"bundle exec rake test", true},
		{"bundle exec rails server", false},
		{"bundle install", false},
		{"composer test", true},
		{"composer install", false},
		{"pnpm -r test", true},
		{"hatch test", true},
		{"deno test --allow-read", true},
		{"mix test", true},
		{"vendor/bin/phpunit", true},
	} {
		if got := RunsTests(tc.line); got != tc.want {
			t.Errorf("RunsTests(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}
