use shop::store::memory::MemoryStore;

pub fn show(store: &MemoryStore) {
    let n = store.count();
    print_count(n);
}

fn print_count(n: usize) {
    eprintln!("{} orders", n);
}
