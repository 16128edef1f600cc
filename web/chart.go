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

// ChartBar is one day's bar.
type ChartBar struct {
	X, Y, W, H string
	Class      string
	Title      string // tooltip and accessible text
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

// Bars returns one bar per day: its height is the share of ended sessions
// that completed without violations; a day with no ended session gets a
// thin grey mark on the base line.
func (c Chart) Bars() []ChartBar {
	step := c.step()
	w := step * 0.7
	out := make([]ChartBar, 0, len(c.Days))
	for i, d := range c.Days {
		x := chartLeft + float64(i)*step + (step-w)/2
		day := d.Day.UTC().Format("Jan 2")
		if d.Ended == 0 {
			out = append(out, ChartBar{X: num(x), Y: num(chartTop + plotH - 2), W: num(w), H: "2", Class: "bar-none",
				Title: day + ": no session ended"})
			continue
		}
		share := float64(d.Compliant) / float64(d.Ended)
		h := share * plotH
		if h < 4 {
			h = 4 // a 0% day still shows, in the "bad" colour
		}
		cls := "bar-bad"
		switch {
		case share >= 0.9:
			cls = "bar-good"
		case share >= 0.6:
			cls = "bar-warn"
		}
		out = append(out, ChartBar{X: num(x), Y: num(chartTop + plotH - h), W: num(w), H: num(h), Class: cls,
			Title: day + ": " + Percent(d.Compliant, d.Ended) + " (" + strconv.Itoa(d.Compliant) + " of " + Plural(d.Ended, "ended session", "ended sessions") + " compliant)"})
	}
	return out
}

// YTicks are the 0%, 50% and 100% grid lines.
func (c Chart) YTicks() []ChartTick {
	var out []ChartTick
	for _, p := range []int{0, 50, 100} {
		y := chartTop + plotH - float64(p)/100*plotH
		out = append(out, ChartTick{X: num(chartLeft - 6), Y: num(y), X2: num(chartLeft + plotW), Label: strconv.Itoa(p) + "%"})
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
