/// The unstructured tasks an owner started and that have not returned yet,
/// so it can cancel them all and wait for them to end. A task forgets
/// itself when it returns.
@MainActor
final class RunningTasks {
    private var tasks: [Int: Task<Void, Never>] = [:]
    private var lastID = 0

    /// Starts `body` in a task that `cancelAll` and `waitForAll` reach.
    @discardableResult
    func run(priority: TaskPriority? = nil, _ body: @escaping @MainActor () async -> Void) -> Task<Void, Never> {
        lastID += 1
        let id = lastID
        // Runs only after this method returns (both on the main actor), so
        // the entry is in place before the task removes it.
        let task = Task(priority: priority) { @MainActor [weak self] in
            await body()
            self?.tasks[id] = nil
        }
        tasks[id] = task
        return task
    }

    /// Cancels every task but `spared`.
    func cancelAll(sparing spared: Task<Void, Never>? = nil) {
        for task in tasks.values where task != spared { task.cancel() }
    }

    /// Returns once every task started so far has returned.
    func waitForAll() async {
        for task in Array(tasks.values) { await task.value }
    }
}
