/// Where `--database-url` lives: this build has no PostgreSQL.
public enum PostgresBuild {
    public static let missing = "--database-url needs the PostgreSQL build: swift build -c release --product diffable-web-postgres, "
        + "then .build/release/diffable-web-postgres serve --database-url URL (README: \"Several nodes\")"
}
