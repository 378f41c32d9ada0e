//! CP-SAT's knobs beyond the model: a decision strategy that grows from the clues, solution hints, named parameters.

use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;

use super::model::Model;
use super::proto::sat_parameters::SearchBranching;
use super::proto::{
    DecisionStrategyProto, PartialVariableAssignment, SatParameters,
    decision_strategy_proto::{DomainReductionStrategy, VariableSelectionStrategy},
};
use crate::puzzle::{Board, Instance, Side};

/// Which decision strategy the model carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, clap::ValueEnum)]
pub enum Strategy {
    /// None: CP-SAT's own heuristics.
    #[default]
    Solver,
    /// Cells in breadth-first order from the clue cells (from the top-left
    /// corner when there are none): piece, then rotation, smallest value
    /// first. CP-SAT's fixed-search worker follows it; with
    /// `search_branching=fixed` every worker does.
    Clues,
}

impl Strategy {
    /// Its name on the command line and in records.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Solver => "solver",
            Strategy::Clues => "clues",
        }
    }
}

/// The cells in breadth-first order from the clue cells (ties: row-major).
pub fn cells_from_clues(instance: &Instance) -> Vec<usize> {
    let grid = instance.grid;
    let mut seen = vec![false; grid.cells()];
    let mut queue: VecDeque<usize> = instance.clues.iter().map(|c| c.cell).collect();
    if queue.is_empty() {
        queue.push_back(0);
    }
    let mut order = Vec::with_capacity(grid.cells());
    for &c in &queue {
        seen[c] = true;
    }
    while let Some(cell) = queue.pop_front() {
        order.push(cell);
        for side in Side::ALL {
            if let Some(next) = grid.neighbour(cell, side).filter(|&n| !seen[n]) {
                seen[next] = true;
                queue.push_back(next);
            }
        }
    }
    order
}

/// The decision strategy of [`Strategy::Clues`] over `model`'s cell variables.
pub fn clue_strategy(instance: &Instance, model: &Model) -> DecisionStrategyProto {
    let variables =
        cells_from_clues(instance).into_iter().flat_map(|c| [model.cells[c].piece, model.cells[c].rotation]).collect();
    DecisionStrategyProto {
        variables,
        variable_selection_strategy: VariableSelectionStrategy::ChooseFirst as i32,
        domain_reduction_strategy: DomainReductionStrategy::SelectMinValue as i32,
        ..Default::default()
    }
}

/// A solution hint: every variable a placed cell of `board` determines (its
/// piece and rotation, and the model's colour, index or literal variables);
/// complete when the board is.
pub fn hint(instance: &Instance, model: &Model, board: &Board) -> PartialVariableAssignment {
    let mut hint = PartialVariableAssignment::default();
    for (vars, placement) in model.cells.iter().zip(&board.cells) {
        if let Some(p) = placement {
            hint.vars.extend([vars.piece, vars.rotation]);
            hint.values.extend([p.piece as i64, i64::from(p.rotation.turns())]);
        }
    }
    for &(var, rule) in &model.derived {
        if let Some(value) = rule.value(instance, board) {
            hint.vars.push(var);
            hint.values.push(value);
        }
    }
    hint
}

/// A named CP-SAT parameter, as `--cpsat-param NAME=VALUE` gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    /// `search_branching`: automatic, fixed, portfolio, lp, pseudo_cost,
    /// quick_restart, hint, partial_fixed or randomized.
    SearchBranching(SearchBranching),
    /// `linearization_level`: 0, 1 or 2.
    LinearizationLevel(i32),
    /// `symmetry_level`: 0 to 4.
    SymmetryLevel(i32),
    /// `cp_model_presolve`: true or false.
    Presolve(bool),
    /// `use_lns`: true or false.
    UseLns(bool),
}

/// The names `search_branching` takes, with their values.
const BRANCHINGS: [(&str, SearchBranching); 9] = [
    ("automatic", SearchBranching::AutomaticSearch),
    ("fixed", SearchBranching::FixedSearch),
    ("portfolio", SearchBranching::PortfolioSearch),
    ("lp", SearchBranching::LpSearch),
    ("pseudo_cost", SearchBranching::PseudoCostSearch),
    ("quick_restart", SearchBranching::PortfolioWithQuickRestartSearch),
    ("hint", SearchBranching::HintSearch),
    ("partial_fixed", SearchBranching::PartialFixedSearch),
    ("randomized", SearchBranching::RandomizedSearch),
];

impl FromStr for Param {
    type Err = String;

    fn from_str(s: &str) -> Result<Param, String> {
        let (name, value) = s.split_once('=').ok_or_else(|| format!("{s}: expected NAME=VALUE"))?;
        let int = |lo: i32, hi: i32| -> Result<i32, String> {
            value
                .parse::<i32>()
                .ok()
                .filter(|v| (lo..=hi).contains(v))
                .ok_or_else(|| format!("{name}: {value} is not an integer in {lo}..={hi}"))
        };
        let boolean = || value.parse::<bool>().map_err(|_| format!("{name}: {value} is not true or false"));
        Ok(match name {
            "search_branching" => Param::SearchBranching(
                BRANCHINGS.iter().find(|(n, _)| *n == value).map(|&(_, b)| b).ok_or_else(|| {
                    let names: Vec<&str> = BRANCHINGS.iter().map(|(n, _)| *n).collect();
                    format!("search_branching: {value} is not one of {}", names.join(", "))
                })?,
            ),
            "linearization_level" => Param::LinearizationLevel(int(0, 2)?),
            "symmetry_level" => Param::SymmetryLevel(int(0, 4)?),
            "cp_model_presolve" => Param::Presolve(boolean()?),
            "use_lns" => Param::UseLns(boolean()?),
            other => {
                return Err(format!(
                    "{other}: not a parameter this tool sets (search_branching, linearization_level, \
                     symmetry_level, cp_model_presolve, use_lns)"
                ));
            }
        })
    }
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Param::SearchBranching(b) => {
                let name = BRANCHINGS.iter().find(|(_, v)| v == b).map_or("?", |(n, _)| n);
                write!(f, "search_branching={name}")
            }
            Param::LinearizationLevel(v) => write!(f, "linearization_level={v}"),
            Param::SymmetryLevel(v) => write!(f, "symmetry_level={v}"),
            Param::Presolve(v) => write!(f, "cp_model_presolve={v}"),
            Param::UseLns(v) => write!(f, "use_lns={v}"),
        }
    }
}

impl Param {
    /// Sets this parameter in `parameters`.
    pub fn apply(self, parameters: &mut SatParameters) {
        match self {
            Param::SearchBranching(b) => parameters.search_branching = Some(b as i32),
            Param::LinearizationLevel(v) => parameters.linearization_level = Some(v),
            Param::SymmetryLevel(v) => parameters.symmetry_level = Some(v),
            Param::Presolve(v) => parameters.cp_model_presolve = Some(v),
            Param::UseLns(v) => parameters.use_lns = Some(v),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{PlantedSpec, planted};

    #[test]
    fn params_parse_print_and_refuse() {
        for s in ["search_branching=fixed", "linearization_level=2", "symmetry_level=0", "cp_model_presolve=false"] {
            assert_eq!(s.parse::<Param>().unwrap().to_string(), s);
        }
        for bad in ["search_branching=sideways", "linearization_level=3", "num_workers=4", "x", "use_lns=maybe"] {
            assert!(bad.parse::<Param>().is_err(), "{bad}");
        }
        let mut p = SatParameters::default();
        "search_branching=fixed".parse::<Param>().unwrap().apply(&mut p);
        assert_eq!(p.search_branching, Some(1));
    }

    #[test]
    fn a_full_board_hints_every_variable_of_every_formulation() {
        use crate::cpsat::model::{Formulation, build};
        let planted = planted(&PlantedSpec::square(5, 2, 4, 2)).unwrap();
        for formulation in [Formulation::Table, Formulation::Element, Formulation::Boolean] {
            let model = build(&planted.instance, formulation);
            let h = hint(&planted.instance, &model, &planted.solution);
            let mut vars = h.vars.clone();
            vars.sort_unstable();
            vars.dedup();
            assert_eq!(vars.len(), model.proto.variables.len(), "{}", formulation.name());
            // Every hinted value lies in its variable's domain.
            for (&v, &value) in h.vars.iter().zip(&h.values) {
                let d = &model.proto.variables[v as usize].domain;
                assert!(d.chunks(2).any(|r| (r[0]..=r[1]).contains(&value)), "{} var {v}", formulation.name());
            }
        }
    }

    #[test]
    fn every_variant_solves_a_small_board_and_the_checker_agrees() {
        use crate::cpsat::Options;
        use crate::cpsat::model::Formulation;
        use crate::solver::{Limits, Solver, Status};
        use crate::stop::Stop;
        let planted = planted(&PlantedSpec::square(6, 3, 5, 5)).unwrap();
        let fixed = "search_branching=fixed".parse::<Param>().unwrap();
        let variants = [
            Options { formulation: Formulation::Boolean, ..Options::default() },
            Options { strategy: Strategy::Clues, params: vec![fixed], ..Options::default() },
            Options { hint_seconds: Some(0.5), ..Options::default() },
            Options { formulation: Formulation::Boolean, hint_seconds: Some(0.5), ..Options::default() },
        ];
        let limits = Limits { time_limit: Some(60.0), threads: 1, ..Limits::default() };
        for options in variants {
            // Through the dispatcher, which runs the search for the hint first.
            let outcome = Solver::Cpsat(options.clone()).solve(&planted.instance, &limits, &Stop::new()).unwrap();
            assert_eq!(outcome.status, Status::Solved, "{options:?}");
            let board = outcome.board.unwrap();
            assert!(crate::check::check(&planted.instance, &board).is_solution(), "{options:?}");
        }
    }

    #[test]
    fn breadth_first_from_the_clues_covers_every_cell_once() {
        let instance = planted(&PlantedSpec::square(6, 2, 4, 1)).unwrap().instance;
        let order = cells_from_clues(&instance);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..36).collect::<Vec<_>>());
        assert!(instance.clues.iter().all(|c| order[..instance.clues.len()].contains(&c.cell)));
    }
}
