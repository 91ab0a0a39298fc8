/// One event of a `text/event-stream`, as the HTML standard's event stream interpretation dispatches it.
public struct ServerSentEvent: Sendable, Equatable {
    /// The last event id the stream set (it carries over to later events until changed), if any.
    public var id: String?
    /// The event type; `message` unless the stream named one.
    public var event: String
    /// The data lines joined with line feeds.
    public var data: String
    /// The reconnection time the stream asked for, in milliseconds, if this event's block set one.
    public var retry: Int?

    /// An event with every field given.
    public init(id: String? = nil, event: String = "message", data: String, retry: Int? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
    }
}
