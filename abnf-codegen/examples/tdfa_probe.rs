use std::collections::BTreeSet;
fn main() {
    let mut c = abnf_codegen::Config::new();
    c.specs_dir("specs");
    let (g, _) = c.load().unwrap();
    let m = g.module_by_name(&std::env::args().nth(1).unwrap_or("rfc3987".into())).unwrap();
    let roots: Vec<_> = g.module(m).defined.clone();
    let leaves: BTreeSet<_> = ["IPv6address"].iter().filter_map(|n| g.resolve(m, n)).collect();
    let model = abnf_codegen::ast::model(&g, &roots, &BTreeSet::new(), &leaves);
    let mut low = abnf_codegen::regular::Lowerer::new(&g);
    for t in &model.types {
        let (hir, groups) = low.lower_captured(&model, t.rule).unwrap();
        let nfa = regex_automata::nfa::thompson::Compiler::new()
            .configure(regex_automata::nfa::thompson::Config::new().which_captures(regex_automata::nfa::thompson::WhichCaptures::All))
            .build_from_hir(&hir).unwrap();
        let t0 = std::time::Instant::now();
        let mut d = abnf_codegen::tagged::TaggedDfa::build(&nfa).unwrap(); let before = d.states(); d.minimize(); print!("before={before} ");
        println!("{:<16} {:?} groups={} nfa={} tdfa={} regs={} oplists={} alphabet={} {:?}", g.rule(t.rule).name, match &t.shape { abnf_codegen::ast::Shape::Struct(f) => format!("struct{}", f.len()), abnf_codegen::ast::Shape::Enum(v) => format!("enum{}", v.len()), abnf_codegen::ast::Shape::List(_) => "list".into() }, groups, nfa.states().len(), d.states(), d.registers, d.op_lists.len(), d.alphabet, t0.elapsed());
    }
}
