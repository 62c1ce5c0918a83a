//! Compressed adjacency lists of an undirected graph given as an edge list: the one neighbour
//! structure of the spanning trees, the walking carvers and the solver.

/// Compressed adjacency: `neighbours[start[v]..start[v + 1]]` are `(node, edge index)`.
#[derive(Debug)]
pub(crate) struct Adjacency {
    pub(crate) start: Vec<u32>,
    pub(crate) neighbours: Vec<(u32, u32)>,
}

impl Adjacency {
    pub(crate) fn new(n: usize, edges: impl Iterator<Item = (u32, u32)> + Clone) -> Self {
        let mut start = vec![0u32; n + 1];
        for (a, b) in edges.clone() {
            start[a as usize + 1] += 1;
            start[b as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut neighbours = vec![(0, 0); start[n] as usize];
        for (i, (a, b)) in edges.enumerate() {
            neighbours[fill[a as usize] as usize] = (b, i as u32);
            fill[a as usize] += 1;
            neighbours[fill[b as usize] as usize] = (a, i as u32);
            fill[b as usize] += 1;
        }
        Self { start, neighbours }
    }

    pub(crate) fn of(&self, v: u32) -> &[(u32, u32)] {
        &self.neighbours[self.start[v as usize] as usize..self.start[v as usize + 1] as usize]
    }
}
