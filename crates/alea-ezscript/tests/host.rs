//! The embedding API: host globals and objects, extra members, the formatter, the `was`
//! snapshot, JSON, compile once / run many, and the parser's limits.

use alea_ezscript::{
    Closure, Env, Formatter, Global, Host, HostObject, MapHost, MemberKind, Previous, Program,
    Template, Value,
};

#[derive(Debug)]
struct Player {
    id: u32,
    name: &'static str,
    chips: f64,
}

impl HostObject for Player {
    fn type_name(&self) -> &str {
        "Player"
    }
    fn property(&self, name: &str) -> Option<Result<Value, String>> {
        Some(Ok(match name {
            "id" => Value::Number(self.id as f64),
            "name" => Value::text(self.name),
            "chips" => Value::Number(self.chips),
            "broken" => return Some(Err("chips are not counted yet".into())),
            _ => return None,
        }))
    }
    fn method(&self, name: &str, args: &[Value]) -> Option<Result<Value, String>> {
        (name == "greet").then(|| {
            Ok(Value::from(format!(
                "hi {} from {}",
                args[0].display(),
                self.name
            )))
        })
    }
    fn has_method(&self, name: &str) -> bool {
        name == "greet"
    }
    fn display(&self) -> String {
        self.name.to_string()
    }
    fn to_json(&self) -> serde_json::Value {
        serde_json::json!({"$type": "Player", "id": self.id})
    }
    fn identity(&self) -> u64 {
        self.id as u64
    }
}

struct Club {
    chips: f64,
    previous: Option<Box<Club>>,
    alerts: bool,
}

fn player(id: u32) -> Option<Value> {
    let (name, chips) = match id {
        1 => ("Ann", 1500.0),
        2 => ("Bob", 800.0),
        _ => return None,
    };
    Some(Value::host(Player { id, name, chips }))
}

impl Host for Club {
    fn global(&self, name: &str) -> Global {
        match name {
            "players" => Global::Value(Ok(Value::list(vec![
                player(1).unwrap(),
                player(2).unwrap(),
            ]))),
            "totalChips" => Global::Value(Ok(Value::Number(self.chips))),
            "double" => Global::Value(Ok(Closure::native("double", |args| match args {
                [Value::Number(x)] => Ok(Value::Number(2.0 * x)),
                _ => Err("double expects 1 number".into()),
            }))),
            "payouts" => Global::NotAvailable,
            _ => Global::Unknown,
        }
    }
    fn member_kind(&self, receiver: &Value, name: &str) -> Option<MemberKind> {
        match (receiver, name) {
            (Value::Number(_), "toPlayer") => Some(MemberKind::Method),
            (Value::List(_), "total") => Some(MemberKind::Property),
            _ => None,
        }
    }
    fn member(
        &self,
        receiver: &Value,
        name: &str,
        _args: Option<&[Value]>,
    ) -> Result<Value, String> {
        match (receiver, name) {
            (Value::Number(n), "toPlayer") => {
                player(*n as u32).ok_or_else(|| format!("No player with number {n}"))
            }
            (Value::List(items), "total") => Ok(Value::Number(
                items
                    .iter()
                    .map(|v| if let Value::Number(x) = v { *x } else { 0.0 })
                    .sum(),
            )),
            _ => Err("unreachable".into()),
        }
    }
    fn now(&self) -> Option<f64> {
        Some(1000.0)
    }
    fn previous(&self) -> Previous<'_> {
        match (&self.previous, self.alerts) {
            (_, false) => Previous::NotAvailable,
            (None, true) => Previous::NoSnapshot,
            (Some(p), true) => Previous::Snapshot(&**p),
        }
    }
}

struct Dollars;

impl Formatter for Dollars {
    fn currency(&self, x: f64) -> Result<String, String> {
        Ok(format!("${x}"))
    }
}

fn club(chips: f64) -> Club {
    Club {
        chips,
        previous: None,
        alerts: false,
    }
}

fn run(host: &dyn Host, src: &str) -> Result<String, String> {
    let env = Env {
        formatter: &Dollars,
        ..Env::with_host(host)
    };
    let program = Program::compile(src).map_err(|d| d[0].message.clone())?;
    program
        .run_display(&env)
        .map(|o| o.text)
        .map_err(|e| e.message)
}

#[test]
fn host_objects_and_members() {
    let host = club(2300.0);
    let cases: &[(&str, Result<&str, &str>)] = &[
        (
            "players.map(func(p) { p.name + \":\" + p.chips.toString })",
            Ok("[Ann:1500, Bob:800]"),
        ),
        ("players", Ok("[Ann, Bob]")),
        ("players[1][\"name\"]", Ok("Bob")),
        ("players[0].greet(\"you\")", Ok("hi you from Ann")),
        (
            "players[0].greet",
            Err("greet is a method; write it with parentheses"),
        ),
        (
            "players[0].name()",
            Err("name is a property; write it without parentheses"),
        ),
        (
            "players[0].nope",
            Err("Attempted to access missing element nope on Player"),
        ),
        ("players[0].broken", Err("chips are not counted yet")),
        (
            "[players[0] == 1.toPlayer(), players[0] == players[1]]",
            Ok("[true, false]"),
        ),
        ("2.toPlayer().name", Ok("Bob")),
        ("9.toPlayer()", Err("No player with number 9")),
        (
            "1.toPlayer",
            Err("toPlayer is a method; write it with parentheses"),
        ),
        ("[1, 2, 3].total", Ok("6")),
        (
            "players[0].chips = 1",
            Err("Tournament values are read-only"),
        ),
        (
            "p = players[0]; p.chips = 1",
            Err("Tournament values are read-only"),
        ),
        (
            "l = players; l[0] = 5; [l, players]",
            Ok("[[5, Bob], [Ann, Bob]]"),
        ),
        (
            "totalChips += 1",
            Err("Cannot update totalChips: tournament values are read-only"),
        ),
        ("totalChips = 1; totalChips", Ok("1")),
        ("payouts", Err("payouts is not available in this field")),
        ("[double(21), [1, 2].map(double)]", Ok("[42, [2, 4]]")),
        ("double(\"x\")", Err("double expects 1 number")),
        ("1250.toCurrencyString", Ok("$1250")),
        ("[now(), 1.toString]", Ok("[1000, 1]")),
        ("was(totalChips)", Err("was is not available in this field")),
        ("nobody", Err("Unknown name nobody")),
    ];
    for (src, want) in cases {
        let got = run(&host, src);
        let got = got.as_ref().map(String::as_str).map_err(String::as_str);
        assert_eq!(got, *want, "{src}");
    }
}

#[test]
fn was_changed_became_true() {
    let no_snapshot = Club {
        chips: 10.0,
        previous: None,
        alerts: true,
    };
    let with_snapshot = Club {
        chips: 10.0,
        previous: Some(Box::new(club(4.0))),
        alerts: true,
    };
    let cases: &[(&Club, &str, Result<&str, &str>)] = &[
        (
            &no_snapshot,
            "was(totalChips)",
            Err("was() has no earlier value"),
        ),
        (&no_snapshot, "changed(totalChips)", Ok("true")),
        (&no_snapshot, "becameTrue(totalChips > 5)", Ok("true")),
        (&with_snapshot, "was(totalChips)", Ok("4")),
        (
            &with_snapshot,
            "[was(totalChips * 2), changed(totalChips), changed(1)]",
            Ok("[8, true, false]"),
        ),
        (&with_snapshot, "becameTrue(totalChips > 5)", Ok("true")),
        (&with_snapshot, "becameTrue(totalChips > 3)", Ok("false")),
        (
            &with_snapshot,
            "becameTrue(totalChips)",
            Err("becameTrue() needs true or false"),
        ),
        (
            &with_snapshot,
            "e = 1; was(totalChips + e)",
            Err("was() can only read tournament values; e is a local name"),
        ),
        (
            &with_snapshot,
            "was(1, 2)",
            Err("was expects 1 argument, got 2"),
        ),
    ];
    for (host, src, want) in cases {
        let got = run(*host, src);
        let got = got.as_ref().map(String::as_str).map_err(String::as_str);
        assert_eq!(got, *want, "{src}");
    }
}

#[test]
fn compile_once_run_many() {
    let program = Program::compile("totalChips / players.count").unwrap();
    for chips in [100.0, 250.0, 7.0] {
        let host = club(chips);
        let v = program.run(&Env::with_host(&host)).unwrap();
        assert_eq!(v, Value::Number(chips / 2.0));
    }
    // Each run starts from a fresh scope.
    let program = Program::compile("n = if n2 == 0 { 1 } else { 2 }; n2 = 5; n").unwrap();
    let host = MapHost::new().with("n2", 0.0);
    for _ in 0..3 {
        assert_eq!(
            program.run(&Env::with_host(&host)).unwrap(),
            Value::Number(1.0)
        );
    }
}

#[test]
fn json_round_trip() {
    let json = serde_json::json!({"a": [1, 2.5, "x", null, true], "b": {"c": 3}});
    let v = Value::from_json(&json);
    assert_eq!(v.to_json(), json);
    assert_eq!(v.display(), "{a: [1, 2.5, x, null, true], b: {c: 3}}");
    let host = MapHost::from_json(&json);
    let program = Program::compile("[a[1] * 2, b.c, a.count]").unwrap();
    let out = program.run(&Env::with_host(&host)).unwrap();
    assert_eq!(out.to_json(), serde_json::json!([5, 3, 5]));
    let odd = Program::compile("[0 / 0, 1 / 0, players[0]]")
        .unwrap()
        .run(&Env::with_host(&club(1.0)))
        .unwrap();
    assert_eq!(
        odd.to_json(),
        serde_json::json!(["NaN", "Infinity", {"$type": "Player", "id": 1}])
    );
    let mut budget = 10;
    let big = Value::list(vec![Value::Number(1.0); 20]);
    assert!(big.to_json_bounded(&mut budget).is_none());
}

#[test]
fn parser_limits() {
    let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
    let err = Program::compile(&deep).unwrap_err();
    assert_eq!(err[0].message, "Nesting is too deep");
    let ok = format!("{}1{}", "(".repeat(60), ")".repeat(60));
    assert_eq!(
        Program::compile(&ok).unwrap().run(&Env::default()).unwrap(),
        Value::Number(1.0)
    );
    let megabyte = "[".repeat(1 << 20);
    let err = Program::compile(&megabyte).unwrap_err();
    assert_eq!(err[0].message, "Script is too long");
    let just_under = "[".repeat(60 * 1024);
    let err = Program::compile(&just_under).unwrap_err();
    assert_eq!(err[0].message, "Nesting is too deep");
    let unary = "-".repeat(1000) + "1";
    assert_eq!(
        Program::compile(&unary).unwrap_err()[0].message,
        "Nesting is too deep"
    );
    let blocks = "if true { ".repeat(100) + &"}".repeat(100);
    assert_eq!(
        Program::compile(&blocks).unwrap_err()[0].message,
        "Nesting is too deep"
    );
}

#[test]
fn templates() {
    let env = Env::default();
    let t = Template::compile("a {{ 1 + ");
    let out = t.render(&env);
    assert_eq!(out.text, "");
    assert_eq!(
        out.errors[0].message,
        "Syntax error at 1:3: expected }} to close this {{"
    );
    let t = Template::compile("x{{ 1 +* 2 }}y{{ 3 }}");
    let out = t.render(&env);
    assert_eq!(out.text, "xy3");
    assert_eq!(out.insertions, vec![Some(0)]);
    let second = Template::compile("{{ 1 }}{{ nope }}").render(&env);
    assert_eq!(
        (second.text.as_str(), second.insertions.clone()),
        ("1", vec![Some(1)])
    );
    assert!(
        out.errors[0]
            .message
            .starts_with("Syntax error at 1:8: expected an expression, found *"),
        "{:?}",
        out.errors
    );
    let t = Template::compile("{{ n = 2 }}{{ n * 21 }}, {{ {a: 1}.a }}{{ \"{{\" }}");
    assert_eq!(t.render(&env).text, "42, 1{{");
    assert!(!Template::compile("plain").has_insertions());
    assert_eq!(Template::compile("plain").render(&env).text, "plain");
}

#[test]
fn deep_recursion_fits_the_test_thread_and_a_2_mib_one() {
    // 500 nested calls, each with a few nested expressions, on the test's own thread.
    let src = "func f(n) { if n == 0 { 0 } else { 1 + (1 * (f(n - 1) + 0)) } }; f(499)";
    let out = {
        Program::compile(src)
            .unwrap()
            .run(&Env::default())
            .map(|v| v.display())
    };
    assert_eq!(out.unwrap(), "499");
    // and the same on a spawned thread with a default 2 MiB stack.
    let out = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            Program::compile(src)
                .unwrap()
                .run(&Env::default())
                .map(|v| v.display())
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(out.unwrap(), "499");
}
