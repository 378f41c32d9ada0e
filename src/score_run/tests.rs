//! Tests of a run's opening: a checkpoint's seed and plan are checked as the flags that give them are.

use super::*;
use crate::formats::checkpoint::{self, Checkpoint, RunState, SavedPlan};
use crate::generate::{PlantedSpec, planted};
use crate::solver::SolverKind;

/// A checkpoint whose seed CP-SAT would refuse, whose fill order does not
/// parse, or whose breaks exceed the board's joins is refused when the run
/// opens, naming the file and the field, as the flag would be. Before, the
/// saved seed and plan were applied after the flags were checked: a seed
/// above what CP-SAT takes made every completion fail, silently, and a bad
/// plan was taken as it came.
#[test]
fn a_checkpoint_seed_or_plan_no_flag_could_give_is_refused_naming_the_field() {
    let p = planted(&PlantedSpec::square(6, 3, 5, 1)).unwrap();
    let dir = std::env::temp_dir().join(format!("edgematch-open-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("run.checkpoint.json");
    let plan = |order: &str, breaks: &str| SavedPlan {
        order: order.to_owned(),
        breaks: breaks.to_owned(),
        quota: "none".to_owned(),
        completion: "none".to_owned(),
    };
    let cases = [
        (3_000_000_000, plan("band-sw", "20:1"), "`run.seed`: 3000000000 is not in 0..=2147483647"),
        (1, plan("no-such-order", "20:1"), "`run.plan.order`"),
        (1, plan("band-sw", "20:1,30:61"), "`run.plan`: --breaks"),
    ];
    let solver = Solver::new(SolverKind::Search);
    for (seed, plan, said) in cases {
        let run = RunState { seed, plan: Some(plan), ..RunState::default() };
        checkpoint::write(&path, &p.instance, &Checkpoint { seconds: 1.0, board: None, run: Some(run) }).unwrap();
        let setup = Setup { checkpoint: Some(path.clone()), ..Setup::default() };
        let opened = Run::open(&p.instance, &solver, score::Options::default(), &Limits::default(), setup);
        let error = opened.err().expect("refused").to_string();
        assert!(error.contains("run.checkpoint.json") && error.contains(said), "{error} should say {said}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
