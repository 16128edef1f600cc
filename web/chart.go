package web

import (
	"strconv"
)

// The compliance chart is drawn on the server as inline SVG, so it reads
// without JavaScript. Geometry is in viewBox units; CSS scales it.
const (
	chartW      = 1000
	chartH      = 220
	chartLeft   = 44 // room for the y-axis labels
	chartRight  = 8
	chartTop    = 12
	chartBottom = 30 // room for the date labels
	plotW       = chartW - chartLeft - chartRight
	plotH       = chartH - chartTop - chartBottom
)

// ChartViewBox is the SVG viewBox of the compliance chart.
const ChartViewBox = "0 0 1000 220"

// ChartBar is one day: a stacked bar whose height is how many sessions
// ended (volume), split into the compliant part (bottom, Good*) and the
// rest (top, Bad*), with the share written above it. A day with no ended
// session has no bar, only a hollow marker on the base line and no share:
// it never looks like a 0% day (a full-height "not compliant" bar, "0%").
type ChartBar struct {
	X, W         string
	GoodY, GoodH string // compliant part; GoodH "0" when none
	BadY, BadH   string // not-compliant part; BadH "0" when none
	LabelX       string
	LabelY       string
	Label        string // "98%", "" on a day without data
	None         bool   // no session ended that day
	Class        string // bar-good / bar-warn / bar-bad / bar-none: the day's share band
	Title        string // tooltip and accessible name
	Href         string // that day's sessions
}

// ChartTick is a label on an axis.
type ChartTick struct {
	X, Y, X2 string
	Label    string
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }

func (c Chart) step() float64 {
	if len(c.Days) == 0 {
		return plotW
	}
	return float64(plotW) / float64(len(c.Days))
}

// scale is the y-axis maximum: the largest day's count rounded up to a
// number that halves evenly (2, 4, 10, 20, 50, 100, ...).
func (c Chart) scale() int {
	maxN := 1
	for _, d := range c.Days {
		if d.Ended > maxN {
			maxN = d.Ended
		}
	}
	for _, m := range []int{1, 2, 4, 6, 10} {
		if maxN <= m {
			return m
		}
	}
	for p := 10; ; p *= 10 {
		for _, m := range []int{2, 5, 10} {
			if maxN <= m*p {
				return m * p
			}
		}
	}
}

// Bars returns one bar per day, oldest first.
func (c Chart) Bars() []ChartBar {
	step := c.step()
	w := step * 0.7
	top := float64(c.scale())
	base := float64(chartTop + plotH)
	out := make([]ChartBar, 0, len(c.Days))
	for i, d := range c.Days {
		x := chartLeft + float64(i)*step + (step-w)/2
		day := d.Day.UTC().Format("Jan 2")
		iso := d.Day.UTC().Format("2006-01-02")
		b := ChartBar{X: num(x), W: num(w), LabelX: num(x + w/2), Href: "/sessions?from=" + iso + "&to=" + iso}
		if d.Ended == 0 {
			b.None, b.Class = true, "bar-none"
			b.GoodY, b.GoodH, b.BadY, b.BadH = num(base-3), "3", num(base), "0"
			b.Title = day + ": no session ended"
			out = append(out, b)
			continue
		}
		h := float64(d.Ended) / top * plotH
		if h < 6 {
			h = 6 // a single session still shows
		}
		gh := h * float64(d.Compliant) / float64(d.Ended)
		b.GoodY, b.GoodH = num(base-gh), num(gh)
		b.BadY, b.BadH = num(base-h), num(h-gh)
		b.LabelY, b.Label = num(base-h-4), Percent(d.Compliant, d.Ended)
		share := float64(d.Compliant) / float64(d.Ended)
		switch {
		case share >= 0.9:
			b.Class = "bar-good"
		case share >= 0.6:
			b.Class = "bar-warn"
		default:
			b.Class = "bar-bad"
		}
		b.Title = day + ": " + Percent(d.Compliant, d.Ended) + " (" + strconv.Itoa(d.Compliant) + " of " +
			Plural(d.Ended, "ended session", "ended sessions") + " compliant)"
		out = append(out, b)
	}
	return out
}

// YTicks are the 0, half and full grid lines of the volume scale.
func (c Chart) YTicks() []ChartTick {
	m := c.scale()
	var out []ChartTick
	for _, n := range []int{0, m / 2, m} {
		if n == 0 && m == 1 && len(out) > 0 {
			continue
		}
		y := chartTop + plotH - float64(n)/float64(m)*plotH
		out = append(out, ChartTick{X: num(chartLeft - 6), Y: num(y), X2: num(chartLeft + plotW), Label: strconv.Itoa(n)})
	}
	if m == 1 { // 0 and 1 only
		out = []ChartTick{out[0], out[len(out)-1]}
	}
	return out
}

// XTicks label every seventh day, counted back from the last so today is
// always labelled.
func (c Chart) XTicks() []ChartTick {
	step := c.step()
	var out []ChartTick
	for i := len(c.Days) - 1; i >= 0; i -= 7 {
		x := chartLeft + float64(i)*step + step/2
		out = append(out, ChartTick{X: num(x), Y: num(chartH - 10), Label: c.Days[i].Day.UTC().Format("Jan 2")})
	}
	return out
}

// Totals sums the chart's days.
func (c Chart) Totals() (ended, compliant int) {
	for _, d := range c.Days {
		ended += d.Ended
		compliant += d.Compliant
	}
	return ended, compliant
}

// Range describes the chart's days in words.
func (c Chart) Range() string {
	if len(c.Days) == 0 {
		return ""
	}
	return c.Days[0].Day.UTC().Format("Jan 2") + " – " + c.Days[len(c.Days)-1].Day.UTC().Format("Jan 2, 2006") + " (UTC)"
}

// DataDays are the days with at least one ended session, newest first, for
// the table under the chart.
func (c Chart) DataDays() []ChartDay {
	var out []ChartDay
	for i := len(c.Days) - 1; i >= 0; i-- {
		if c.Days[i].Ended > 0 {
			out = append(out, c.Days[i])
		}
	}
	return out
}
