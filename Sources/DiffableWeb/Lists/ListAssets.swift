/// A list whose cells show files (images) the server serves beside it, at
/// `/demos/<name>/assets/<file>` with an `ETag`: a folder's files, or files made on request.
/// Read once, when the list is registered, from a list made with its shared values.
public protocol ListAssets: WebList {
    var assets: DemoAssets { get }
}
