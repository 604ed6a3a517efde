//! The lexical side of bilby's prior files: `name = Class(arguments)` or `name = number`
//! lines, `#` comments, quoted strings, `None`, numeric expressions (+ − * / parentheses,
//! numbers, `np.pi`, `pi`, `math.pi`), and priors as arguments of others
//! (`AlignedSpin(a_prior=Uniform(minimum=0, maximum=0.99))`).

use std::fmt;

/// A value of a keyword or positional argument.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A number (after evaluating its expression).
    Number(f64),
    /// A quoted string.
    Text(String),
    /// Python's `None`.
    None,
    /// Python's `True` or `False`.
    Bool(bool),
    /// A prior given as an argument, `Class(arguments)`.
    Call(Call),
}

/// `Class(arguments)`; `class` is the last component of a dotted path such as
/// `bilby.core.prior.Uniform`.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The class name.
    pub class: String,
    /// Its arguments as written.
    pub arguments: Vec<Argument>,
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Number(x) => write!(f, "{x}"),
            Value::Text(s) => write!(f, "'{s}'"),
            Value::None => f.write_str("None"),
            Value::Bool(true) => f.write_str("True"),
            Value::Bool(false) => f.write_str("False"),
            Value::Call(call) => write!(f, "{}(…)", call.class),
        }
    }
}

/// One argument: `keyword=value` or a positional value.
#[derive(Debug, Clone, PartialEq)]
pub struct Argument {
    /// The keyword, or `None` for a positional argument.
    pub keyword: Option<String>,
    /// The value.
    pub value: Value,
}

/// The right-hand side of a prior line.
#[derive(Debug, Clone, PartialEq)]
pub enum RightHandSide {
    /// `Class(arguments)`.
    Call(Call),
    /// A bare number: bilby's DeltaFunction shorthand.
    Number(f64),
}

/// A parsed non-empty line `name = right-hand side`.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// The parameter name left of `=`.
    pub name: String,
    /// What it is set to.
    pub rhs: RightHandSide,
}

/// Parses one line; `Ok(None)` for blank and comment-only lines.
pub fn parse_line(line: &str) -> Result<Option<Line>, String> {
    let code = strip_comment(line).trim();
    if code.is_empty() {
        return Ok(None);
    }
    let (name, rhs) = code
        .split_once('=')
        .ok_or("expected `name = Prior(...)` or `name = value`")?;
    let name = name.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("'{name}' is not a parameter name"));
    }
    let rhs = rhs.trim();
    let rhs = match parse_call(rhs)? {
        Some(call) => RightHandSide::Call(call),
        None => RightHandSide::Number(evaluate(rhs)?),
    };
    Ok(Some(Line {
        name: name.to_string(),
        rhs,
    }))
}

/// `Class(arguments)` if `text` is a call (a dotted name, then parentheses closing at its end);
/// `Ok(None)` if it is no call (a number or an expression, say).
fn parse_call(text: &str) -> Result<Option<Call>, String> {
    let Some(open) = text.find('(') else {
        return Ok(None);
    };
    let path = text[..open].trim();
    if !path.chars().next().is_some_and(char::is_alphabetic) || is_constant(path) {
        return Ok(None);
    }
    if !path
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
    {
        return Err(format!("'{path}' is not a prior class"));
    }
    let inner = text[open + 1..]
        .strip_suffix(')')
        .ok_or_else(|| format!("missing closing ')' at the end of {path}(…)"))?;
    let class = path.rsplit('.').next().unwrap_or(path).to_string();
    let arguments = split_top_level(inner)?
        .into_iter()
        .filter(|a| !a.trim().is_empty())
        .map(|a| parse_argument(&a))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{e}, in the arguments of {class}"))?;
    Ok(Some(Call { class, arguments }))
}

/// True for the names of constants, which may precede '(' only in expressions like `pi (…)`.
fn is_constant(s: &str) -> bool {
    matches!(s, "pi" | "np.pi" | "math.pi" | "numpy.pi")
}

/// The line without a `#` comment (a `#` inside quotes is kept).
fn strip_comment(line: &str) -> &str {
    let mut quote = None;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '#') => return &line[..i],
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            _ => {}
        }
    }
    line
}

/// Splits at commas outside quotes and parentheses.
fn split_top_level(s: &str) -> Result<Vec<String>, String> {
    let (mut parts, mut current) = (Vec::new(), String::new());
    let (mut depth, mut quote) = (0i32, None);
    for c in s.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') => {
                depth -= 1;
                if depth < 0 {
                    return Err("unbalanced ')'".into());
                }
            }
            (None, ',') if depth == 0 => {
                parts.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if quote.is_some() {
        return Err("unterminated string".into());
    }
    if depth != 0 {
        return Err("unbalanced '('".into());
    }
    parts.push(current);
    Ok(parts)
}

fn parse_argument(s: &str) -> Result<Argument, String> {
    let s = s.trim();
    // `keyword=value`, where the keyword is an identifier (a '=' inside quotes is not one).
    let keyword_end = s.find('=').filter(|&i| {
        let k = s[..i].trim();
        !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    });
    let (keyword, value) = match keyword_end {
        Some(i) => (Some(s[..i].trim().to_string()), s[i + 1..].trim()),
        None => (None, s),
    };
    let value = if value == "None" {
        Value::None
    } else if let Some(flag) = [("True", true), ("False", false)]
        .iter()
        .find_map(|(word, flag)| (value == *word).then_some(*flag))
    {
        Value::Bool(flag)
    } else if let Some(text) = unquote(value) {
        Value::Text(text)
    } else if let Some(call) = parse_call(value)? {
        Value::Call(call)
    } else {
        Value::Number(evaluate(value).map_err(|e| match &keyword {
            Some(k) => format!("{k}: {e}"),
            None => e,
        })?)
    };
    Ok(Argument { keyword, value })
}

/// The contents of `'…'`, `"…"` or the raw-string forms `r'…'`, `r"…"`.
fn unquote(s: &str) -> Option<String> {
    let s = s.strip_prefix('r').unwrap_or(s);
    for q in ['\'', '"'] {
        if let Some(inner) = s.strip_prefix(q).and_then(|t| t.strip_suffix(q)) {
            if !inner.contains(q) {
                return Some(inner.to_string());
            }
        }
    }
    None
}

/// Evaluates a numeric expression: numbers (`1`, `0.5`, `1e-3`), `pi`/`np.pi`/`math.pi`,
/// unary ±, binary + − * / with the usual precedence, and parentheses.
pub fn evaluate(expr: &str) -> Result<f64, String> {
    let tokens = tokenize(expr)?;
    let mut parser = Parser {
        tokens: &tokens,
        pos: 0,
    };
    let value = parser.sum()?;
    if parser.pos != tokens.len() {
        return Err(format!("unexpected '{}' in '{expr}'", tokens[parser.pos]));
    }
    if !value.is_finite() {
        return Err(format!("'{expr}' is not a finite number"));
    }
    Ok(value)
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Number(f64),
    Op(char),
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Number(x) => write!(f, "{x}"),
            Token::Op(c) => write!(f, "{c}"),
        }
    }
}

fn tokenize(expr: &str) -> Result<Vec<Token>, String> {
    let bytes = expr.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i] as char;
        if c.is_whitespace() {
            i += 1;
        } else if "+-*/()".contains(c) {
            tokens.push(Token::Op(c));
            i += 1;
        } else if c.is_ascii_digit() || c == '.' {
            let start = i;
            while i < bytes.len() {
                let d = bytes[i] as char;
                let exponent_sign =
                    (d == '+' || d == '-') && i > start && matches!(bytes[i - 1], b'e' | b'E');
                if d.is_ascii_digit() || d == '.' || d == 'e' || d == 'E' || exponent_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            let text = &expr[start..i];
            let value = text
                .parse::<f64>()
                .map_err(|_| format!("'{text}' is not a number"))?;
            // f64 parsing rounds a too small literal to 0 silently (and a too large one to
            // inf, which the priors' checks reject): refuse both alike.
            let mantissa = text.split(['e', 'E']).next().unwrap_or(text);
            if value == 0.0 && mantissa.chars().any(|d| ('1'..='9').contains(&d)) {
                return Err(format!(
                    "'{text}' is too small for a double (it would read as 0)"
                ));
            }
            tokens.push(Token::Number(value));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || b"_.".contains(&bytes[i]))
            {
                i += 1;
            }
            let word = &expr[start..i];
            if is_constant(word) {
                tokens.push(Token::Number(std::f64::consts::PI));
            } else {
                return Err(format!(
                    "unknown name '{word}' (expressions may use numbers, + - * / ( ) and np.pi)"
                ));
            }
        } else {
            return Err(format!("unexpected character '{c}' in '{expr}'"));
        }
    }
    if tokens.is_empty() {
        return Err("missing value".into());
    }
    Ok(tokens)
}

/// Recursive descent: sum := product (('+'|'-') product)*; product := unary (('*'|'/') unary)*;
/// unary := ('+'|'-') unary | atom; atom := number | '(' sum ')'.
struct Parser<'a> {
    tokens: &'a [Token],
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn sum(&mut self) -> Result<f64, String> {
        let mut value = self.product()?;
        while let Some(Token::Op(op @ ('+' | '-'))) = self.peek().cloned() {
            self.pos += 1;
            let rhs = self.product()?;
            value = if op == '+' { value + rhs } else { value - rhs };
        }
        Ok(value)
    }

    fn product(&mut self) -> Result<f64, String> {
        let mut value = self.unary()?;
        while let Some(Token::Op(op @ ('*' | '/'))) = self.peek().cloned() {
            self.pos += 1;
            let rhs = self.unary()?;
            value = if op == '*' { value * rhs } else { value / rhs };
        }
        Ok(value)
    }

    fn unary(&mut self) -> Result<f64, String> {
        match self.peek() {
            Some(Token::Op('-')) => {
                self.pos += 1;
                Ok(-self.unary()?)
            }
            Some(Token::Op('+')) => {
                self.pos += 1;
                self.unary()
            }
            _ => self.atom(),
        }
    }

    fn atom(&mut self) -> Result<f64, String> {
        match self.peek().cloned() {
            Some(Token::Number(x)) => {
                self.pos += 1;
                Ok(x)
            }
            Some(Token::Op('(')) => {
                self.pos += 1;
                let value = self.sum()?;
                if self.peek() != Some(&Token::Op(')')) {
                    return Err("missing ')'".into());
                }
                self.pos += 1;
                Ok(value)
            }
            Some(t) => Err(format!("unexpected '{t}'")),
            None => Err("expression ends too early".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    #[test]
    fn expressions() {
        assert_eq!(evaluate("2 * np.pi").unwrap(), 2.0 * PI);
        assert_eq!(evaluate("np.pi/2").unwrap(), PI / 2.0);
        assert_eq!(evaluate("-np.pi / 2").unwrap(), -PI / 2.0);
        assert_eq!(evaluate("1e-3").unwrap(), 1e-3);
        assert_eq!(evaluate("2.5E+2 - (1 + 2) * 3").unwrap(), 241.0);
        assert_eq!(evaluate("1126259462.4 - 0.1").unwrap(), 1126259462.4 - 0.1);
        assert!(evaluate("2 * np.e").is_err());
        assert!(evaluate("1/0").is_err());
        assert!(evaluate("(1 + 2").is_err());
        assert!(evaluate("1 2").is_err());
    }

    #[test]
    fn lines() {
        let l = parse_line(
            "phase = bilby.core.prior.Uniform(name='phase', minimum=0, maximum=2 * np.pi, \
             boundary='periodic', latex_label='$\\phi, x$')  # comment",
        )
        .unwrap()
        .unwrap();
        assert_eq!(l.name, "phase");
        let RightHandSide::Call(Call { class, arguments }) = l.rhs else {
            panic!("not a call")
        };
        assert_eq!(class, "Uniform");
        assert_eq!(arguments.len(), 5);
        assert_eq!(arguments[2].value, Value::Number(2.0 * PI));
        assert_eq!(arguments[4].value, Value::Text("$\\phi, x$".into()));
        assert_eq!(
            parse_line("chi_1 = 0.3").unwrap().unwrap().rhs,
            RightHandSide::Number(0.3)
        );
        assert_eq!(parse_line("  # only a comment").unwrap(), None);
        assert!(parse_line("psi Uniform(0, 1)").is_err());
        assert!(parse_line("psi = Uniform(0, 1").is_err());
        assert!(parse_line("psi = Uniform(minimum=foo)").is_err());
        let nested = parse_line("chi_1 = AlignedSpin(a_prior=Uniform(0, 0.99), name='chi_1')")
            .unwrap()
            .unwrap();
        let RightHandSide::Call(Call { class, arguments }) = nested.rhs else {
            panic!("not a call")
        };
        assert_eq!(class, "AlignedSpin");
        let Value::Call(inner) = &arguments[0].value else {
            panic!("a_prior is no call: {:?}", arguments[0])
        };
        assert_eq!(inner.class, "Uniform");
        assert_eq!(inner.arguments[1].value, Value::Number(0.99));
        let bad = parse_line("chi_1 = AlignedSpin(a_prior=Uniform(0, x))").unwrap_err();
        assert!(
            bad.contains("unknown name 'x'") && bad.ends_with("in the arguments of AlignedSpin"),
            "{bad}"
        );
        let tiny = parse_line("psi = Uniform(minimum=1e-1000, maximum=1)").unwrap_err();
        assert!(tiny.contains("'1e-1000' is too small"), "{tiny}");
        assert!(parse_line("psi = Uniform(minimum=0e-1000, maximum=1)").is_ok());
    }
}
