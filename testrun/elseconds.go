package testrun

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"strings"
)

// elseChain's always reports whether lines[i] sits in an else branch whose if
// chain's conditions never hold (`if false {} else { t.Skip() }`,
// Python's `if False: pass / else: pytest.skip()`, JS's `if (0) {} else
// { return }`): that branch runs in every run, so what it holds is guarded
// by nothing (round 19 c9, left open). eval judges one condition. An
// else after any condition it cannot judge stays a guard.
//
// inElse says whether lines[i] is in an else whose if chain was read at
// all: an else after a condition guards it, as a one-line `} else {
// t.Skip() }` after `if haveDB() {` does.
func elseChain(lines []string, i int, eval func(string) truth) (inElse, always bool) {
	j := openerIndex(lines, i)
	own := onelineElse(strings.TrimSpace(lines[i]))
	if own {
		j = i // `} else { t.Skip() }`, `else: pytest.skip()`: the line is its own else
	}
	if j < 0 || !own && !plainElse(strings.TrimSpace(lines[j])) {
		return false, false // an else if's own condition guards it as any if's does
	}
	ind := indentWidth(lines[j])
	conds, never := 0, true
	for k := j - 1; k >= 0 && k >= j-400; k-- {
		t := strings.TrimSpace(lines[k])
		if t == "" || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") {
			continue
		}
		in := indentWidth(lines[k])
		if in > ind {
			continue // a branch's body
		}
		if in < ind {
			return false, false
		}
		if t == "}" {
			continue // JS/Go: `}` then `else {` on the next line
		}
		c, ok := guardCond(lines[k])
		if !ok {
			return false, false
		}
		if eval(c) != -1 {
			never = false
		}
		conds++
		if !isElse(t) && !strings.HasPrefix(t, "elif") {
			// the chain's if; nested in another block that guards
			// (`if !hasBash { if strict { t.Fatal() } else { t.Skip() } }`,
			// mvdan.cc/sh's), the else is that block's to guard
			if o := openerIndex(lines, k); never && o >= 0 && skipRE().ifLine.MatchString(lines[o]) {
				if c, ok := guardCond(lines[o]); !ok || eval(c) != 1 {
					never = false
				}
			}
			return true, never
		}
	}
	return false, false
}

// isElse: an else line (`} else {`, `else:`, `} else if c {`, `else {`).
func isElse(t string) bool {
	t = strings.TrimSpace(strings.TrimPrefix(t, "}"))
	return t == "else {" || t == "else:" || t == "else" || strings.HasPrefix(t, "else if ") || strings.HasPrefix(t, "else if(")
}

// onelineElse: an else with its body on the same line.
func onelineElse(t string) bool {
	for _, p := range []string{"} else {", "else {", "else:"} {
		if strings.HasPrefix(t, p) && strings.TrimSpace(t[len(p):]) != "" && strings.TrimSpace(t[len(p):]) != "}" {
			return true
		}
	}
	return false
}

// plainElse: an else with no condition of its own.
func plainElse(t string) bool {
	t = strings.TrimSpace(strings.TrimPrefix(t, "}"))
	return t == "else {" || t == "else:" || t == "else"
}

// openerIndex is blockOpener's line index (-1: none).
func openerIndex(lines []string, i int) int {
	ind := indentWidth(lines[i])
	if ind == 0 {
		return -1
	}
	for j := i - 1; j >= 0 && j >= i-200; j-- {
		t := strings.TrimSpace(lines[j])
		if t == "" || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") {
			continue
		}
		if indentWidth(lines[j]) < ind {
			return j
		}
	}
	return -1
}

func indentWidth(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }

// literalInt evaluates an integer expression made of literals only
// (`1+1`, `2*3-1`, `(4/2)`), as go/constant does for Go's constant
// expressions; ok is false for anything naming a variable or call.
func literalInt(s string) (int, bool) {
	if !strings.ContainsAny(s, "+-*/%") || strings.ContainsAny(s, "\"'`") {
		return 0, false
	}
	e, err := parser.ParseExpr(s)
	if err != nil {
		return 0, false
	}
	v := constEval(e)
	if v.Kind() != constant.Int {
		return 0, false
	}
	n, ok := constant.Int64Val(v)
	return int(n), ok && int64(int(n)) == n
}

func constEval(e ast.Expr) constant.Value {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.INT {
			return constant.MakeFromLiteral(e.Value, e.Kind, 0)
		}
	case *ast.ParenExpr:
		return constEval(e.X)
	case *ast.UnaryExpr:
		if x := constEval(e.X); x.Kind() == constant.Int && (e.Op == token.SUB || e.Op == token.ADD) {
			return constant.UnaryOp(e.Op, x, 0)
		}
	case *ast.BinaryExpr:
		x, y := constEval(e.X), constEval(e.Y)
		if x.Kind() != constant.Int || y.Kind() != constant.Int {
			break
		}
		switch e.Op {
		case token.ADD, token.SUB, token.MUL:
			return constant.BinaryOp(x, e.Op, y)
		case token.QUO, token.REM:
			if constant.Sign(y) == 0 {
				break
			}
			if e.Op == token.QUO {
				return constant.BinaryOp(x, token.QUO_ASSIGN, y) // integer division
			}
			return constant.BinaryOp(x, e.Op, y)
		}
	}
	return constant.MakeUnknown()
}
