package tools

import (
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// synthCatalog is a multi-server catalog written for the retrieval
// benchmark, apart from testdata/catalog and from the public sets: several
// servers with look-alike tools (issues on GitHub, GitLab, Jira and Linear;
// SQL on Postgres and SQLite; files locally and on Drive), names in
// snake_case, camelCase, kebab-case and dotted, descriptions terse and
// verbose, and a few requests in plain words for each server. The requests
// were written with the catalog, before the search was tuned, and are not
// to be edited to fit the search: it guards the changes measured on the
// Azure set against fitting that set alone.
func synthCatalog() (map[string]Source, []query) {
	type tool struct {
		name, desc string
		params     []string // "name: description"
	}
	servers := map[string][]tool{
		"github": {
			{"list_issues", "List issues in a GitHub repository. For pagination, use the 'page' and 'perPage' parameters.", []string{"owner: Repository owner", "repo: Repository name", "state: Filter by state (open, closed, all)", "labels: Filter by labels", "since: Filter by date (ISO 8601 timestamp)"}},
			{"get_issue", "Get details of a specific issue in a GitHub repository.", []string{"owner: Repository owner", "repo: Repository name", "issue_number: The number of the issue"}},
			{"create_issue", "Create a new issue in a GitHub repository.", []string{"owner: Repository owner", "repo: Repository name", "title: Issue title", "body: Issue body content", "labels: Labels to apply to this issue", "assignees: Usernames to assign to this issue"}},
			{"update_issue", "Update an existing issue in a GitHub repository: its title, body, state (open or closed), labels or assignees.", []string{"owner: Repository owner", "repo: Repository name", "issue_number: Issue number to update", "state: New state", "title: New title"}},
			{"add_issue_comment", "Add a comment to a specific issue in a GitHub repository.", []string{"owner: Repository owner", "repo: Repository name", "issue_number: Issue number to comment on", "body: Comment content"}},
			{"list_pull_requests", "List pull requests in a GitHub repository.", []string{"owner: Repository owner", "repo: Repository name", "state: Filter by state", "head: Filter by head user/org and branch", "base: Filter by base branch"}},
			{"get_pull_request", "Get details of a specific pull request in a GitHub repository.", []string{"owner: Repository owner", "repo: Repository name", "pullNumber: Pull request number"}},
			{"create_pull_request", "Create a new pull request in a GitHub repository.", []string{"owner: Repository owner", "repo: Repository name", "title: PR title", "head: Branch containing changes", "base: Branch to merge into", "draft: Create as draft PR"}},
			{"merge_pull_request", "Merge a pull request in a GitHub repository.", []string{"owner: Repository owner", "repo: Repository name", "pullNumber: Pull request number", "merge_method: Merge method (merge, squash, rebase)"}},
			{"get_pull_request_diff", "Get the diff of a pull request.", []string{"owner: Repository owner", "repo: Repository name", "pullNumber: Pull request number"}},
			{"list_commits", "Get list of commits of a branch in a GitHub repository. Returns at least 30 results per page by default.", []string{"owner: Repository owner", "repo: Repository name", "sha: Commit SHA, branch or tag name to list commits of"}},
			{"get_file_contents", "Get the contents of a file or directory from a GitHub repository.", []string{"owner: Repository owner (username or organization)", "repo: Repository name", "path: Path to file/directory", "ref: Accepts optional git refs such as refs/tags/{tag}, refs/heads/{branch}"}},
			{"search_repositories", "Search for GitHub repositories.", []string{"query: Search query", "page: Page number for pagination"}},
			{"create_branch", "Create a new branch in a GitHub repository.", []string{"owner: Repository owner", "repo: Repository name", "branch: Name for new branch", "from_branch: Source branch (defaults to repo default)"}},
			{"list_workflow_runs", "List workflow runs for a repository or a specific workflow (GitHub Actions), with their status and conclusion.", []string{"owner: Repository owner", "repo: Repository name", "workflow_id: The workflow ID or workflow file name", "branch: Returns workflow runs associated with a branch", "status: Filter by status"}},
		},
		"gitlab": {
			{"list_merge_requests", "List merge requests in a GitLab project with filtering options.", []string{"project_id: Project ID or URL-encoded path", "state: Return all merge requests or just those that are opened, closed, locked, or merged", "author_username: Returns merge requests created by the given username"}},
			{"get_merge_request", "Get details of a merge request, including its description, state and approvals.", []string{"project_id: Project ID or URL-encoded path", "merge_request_iid: The internal ID of the merge request"}},
			{"create_merge_request", "Create a new merge request in a GitLab project.", []string{"project_id: Project ID or URL-encoded path", "title: Merge request title", "source_branch: Branch containing changes", "target_branch: Branch to merge into"}},
			{"list_issues", "List issues in a GitLab project, optionally filtered by labels, milestone or assignee.", []string{"project_id: Project ID or URL-encoded path", "labels: Comma-separated list of label names", "assignee_username: Return issues assigned to the given username"}},
			{"create_issue", "Create a new issue in a GitLab project.", []string{"project_id: Project ID or URL-encoded path", "title: Issue title", "description: Issue description"}},
			{"list_pipelines", "List pipelines in a GitLab project, with optional filters for status and ref.", []string{"project_id: Project ID or URL-encoded path", "status: The status of pipelines", "ref: The ref of pipelines"}},
			{"retry_job", "Retry a job in a pipeline.", []string{"project_id: Project ID or URL-encoded path", "job_id: The ID of the job"}},
			{"get_job_log", "Get the log (trace) of a CI/CD job.", []string{"project_id: Project ID or URL-encoded path", "job_id: The ID of the job"}},
		},
		"jira": {
			{"jira_search", "Search Jira issues using JQL (Jira Query Language).", []string{"jql: JQL query string", "fields: Comma-separated fields to return", "limit: Maximum number of results (1-50)"}},
			{"jira_get_issue", "Get details of a specific Jira issue including its Epic links and relationship information.", []string{"issue_key: Jira issue key (e.g., 'PROJ-123')", "expand: Fields to expand"}},
			{"jira_create_issue", "Create a new Jira issue with optional Epic link or parent for subtasks.", []string{"project_key: The JIRA project key", "summary: Summary/title of the issue", "issue_type: Issue type (e.g. 'Task', 'Bug', 'Story')", "description: Issue description"}},
			{"jira_update_issue", "Update an existing Jira issue including changing fields, adding Epic links, updating labels.", []string{"issue_key: Jira issue key", "fields: A valid JSON object of fields to update"}},
			{"jira_transition_issue", "Transition a Jira issue to a new status.", []string{"issue_key: Jira issue key", "transition_id: ID of the transition to perform", "comment: Comment to add during the transition"}},
			{"jira_get_transitions", "Get available status transitions for a Jira issue.", []string{"issue_key: Jira issue key"}},
			{"jira_add_comment", "Add a comment to a Jira issue.", []string{"issue_key: Jira issue key", "comment: Comment text in Markdown format"}},
			{"jira_add_worklog", "Add a worklog entry to a Jira issue.", []string{"issue_key: Jira issue key", "time_spent: Time spent in Jira format (e.g., '1h 30m', '1d')", "comment: Optional comment for the worklog"}},
			{"jira_get_sprints_from_board", "Get jira sprints from board by state.", []string{"board_id: The id of board", "state: Sprint state (active, future, closed)"}},
			{"jira_get_sprint_issues", "Get jira issues from sprint.", []string{"sprint_id: The id of sprint"}},
			{"jira_get_project_issues", "Get all issues for a specific Jira project.", []string{"project_key: The project key"}},
		},
		"linear": {
			{"listIssues", "Retrieves issues in the user's Linear workspace, filtered by team, assignee, state or cycle.", []string{"teamId: Team to filter by", "assigneeId: Assignee to filter by; 'me' for the current user", "stateId: Workflow state"}},
			{"getIssue", "Retrieves a Linear issue by its identifier, with attachments and git branch name.", []string{"id: Issue identifier, e.g. ENG-123"}},
			{"createIssue", "Creates a new Linear issue.", []string{"title: Issue title", "teamId: Team ID", "description: Markdown description", "priority: 0-4"}},
			{"updateIssue", "Updates an existing Linear issue: title, description, state, assignee or priority.", []string{"id: Issue identifier", "stateId: New workflow state", "assigneeId: New assignee"}},
			{"createComment", "Creates a comment on a Linear issue.", []string{"issueId: Issue identifier", "body: Markdown content"}},
			{"listTeams", "Retrieves the teams in the user's Linear workspace.", nil},
			{"listProjects", "Retrieves projects in the Linear workspace.", []string{"teamId: Team to filter by"}},
			{"listCycles", "Retrieves the cycles (iterations) of a Linear team: current, previous and upcoming.", []string{"teamId: Team ID", "type: current, previous or next"}},
			{"listIssueLabels", "Lists the issue labels of a Linear workspace or team.", []string{"teamId: Team ID"}},
		},
		"filesystem": {
			{"read_text_file", "Read the complete contents of a file from the file system as text. Handles various text encodings and provides detailed error messages if the file cannot be read.", []string{"path: Path of the file", "head: If provided, returns only the first N lines of the file", "tail: If provided, returns only the last N lines of the file"}},
			{"read_multiple_files", "Read the contents of multiple files simultaneously. More efficient than reading files one by one when you need to analyze or compare multiple files.", []string{"paths: Paths of the files"}},
			{"write_file", "Create a new file or completely overwrite an existing file with new content. Use with caution as it will overwrite existing files without warning.", []string{"path: Path of the file", "content: Content to write"}},
			{"edit_file", "Make line-based edits to a text file. Each edit replaces exact line sequences with new content. Returns a git-style diff showing the changes made.", []string{"path: Path of the file", "edits: List of edits, each with oldText and newText", "dryRun: Preview changes using git-style diff format"}},
			{"create_directory", "Create a new directory or ensure a directory exists. Can create multiple nested directories in one operation.", []string{"path: Path of the directory"}},
			{"list_directory", "Get a detailed listing of all files and directories in a specified path. Results clearly distinguish between files and directories with [FILE] and [DIR] prefixes.", []string{"path: Path of the directory"}},
			{"directory_tree", "Get a recursive tree view of files and directories as a JSON structure.", []string{"path: Path of the root directory"}},
			{"move_file", "Move or rename files and directories. Can move files between directories and rename them in a single operation.", []string{"source: Source path", "destination: Destination path"}},
			{"search_files", "Recursively search for files and directories matching a pattern. Searches through all subdirectories from the starting path.", []string{"path: Starting directory", "pattern: Glob pattern to match", "excludePatterns: Patterns to exclude"}},
			{"get_file_info", "Retrieve detailed metadata about a file or directory. Returns comprehensive information including size, creation time, last modified time, permissions, and type.", []string{"path: Path of the file or directory"}},
			{"list_allowed_directories", "Returns the list of directories that this server is allowed to access.", nil},
		},
		"slack": {
			{"slack_list_channels", "List public or pre-defined channels in the workspace with pagination.", []string{"limit: Maximum number of channels to return", "cursor: Pagination cursor for next page of results"}},
			{"slack_post_message", "Post a new message to a Slack channel.", []string{"channel_id: The ID of the channel to post to", "text: The message text to post"}},
			{"slack_reply_to_thread", "Reply to a specific message thread in Slack.", []string{"channel_id: The ID of the channel containing the thread", "thread_ts: The timestamp of the parent message", "text: The reply text"}},
			{"slack_add_reaction", "Add a reaction emoji to a message.", []string{"channel_id: The ID of the channel containing the message", "timestamp: The timestamp of the message to react to", "reaction: The name of the emoji reaction (without ::)"}},
			{"slack_get_channel_history", "Get recent messages from a channel.", []string{"channel_id: The ID of the channel", "limit: Number of messages to retrieve"}},
			{"slack_get_thread_replies", "Get all replies in a message thread.", []string{"channel_id: The ID of the channel containing the thread", "thread_ts: The timestamp of the parent message"}},
			{"slack_get_users", "Get a list of all users in the workspace with their basic profile information.", []string{"cursor: Pagination cursor", "limit: Maximum number of users to return"}},
			{"slack_get_user_profile", "Get detailed profile information for a specific user.", []string{"user_id: The ID of the user"}},
			{"slack_search_messages", "Search messages across the workspace with Slack's search syntax (from:, in:, before:, after:).", []string{"query: Search query", "sort: score or timestamp"}},
		},
		"postgres": {
			{"list_schemas", "List all schemas in the database.", nil},
			{"list_objects", "List objects in a schema: tables, views, sequences or extensions.", []string{"schema_name: Schema name", "object_type: Object type: 'table', 'view', 'sequence', or 'extension'"}},
			{"get_object_details", "Show detailed information about a database object: its columns, constraints and indexes.", []string{"schema_name: Schema name", "object_name: Object name", "object_type: Object type"}},
			{"execute_sql", "Execute any SQL query against the Postgres database.", []string{"sql: SQL to run"}},
			{"explain_query", "Explains the execution plan for a SQL query, showing how the database will execute it and provides detailed cost estimates.", []string{"sql: SQL query to explain", "analyze: When true, actually runs the query to show real execution statistics"}},
			{"analyze_workload_indexes", "Analyze frequently executed queries in the database and recommend optimal indexes.", []string{"max_index_size_mb: Max index size in MB"}},
			{"analyze_query_indexes", "Analyze a list of (up to 10) SQL queries and recommend optimal indexes.", []string{"queries: List of Query strings to analyze"}},
			{"analyze_db_health", "Analyzes database health. Checks index health, connection health, buffer cache hit rates, replication health, vacuum health and sequence limits.", []string{"health_type: Which checks to run, comma-separated, or 'all'"}},
			{"get_top_queries", "Reports the slowest or most resource-intensive queries using data from the 'pg_stat_statements' extension.", []string{"sort_by: Ranking criteria: 'total_time', 'mean_time' or 'resources'", "limit: Number of queries to return"}},
		},
		"sqlite": {
			{"read_query", "Execute a SELECT query on the SQLite database.", []string{"query: SELECT SQL query to execute"}},
			{"write_query", "Execute an INSERT, UPDATE, or DELETE query on the SQLite database.", []string{"query: SQL query to execute"}},
			{"create_table", "Create a new table in the SQLite database.", []string{"query: CREATE TABLE SQL statement"}},
			{"list_tables", "List all tables in the SQLite database.", nil},
			{"describe_table", "Get the schema information for a specific table.", []string{"table_name: Name of the table to describe"}},
			{"append_insight", "Add a business insight to the memo.", []string{"insight: Business insight discovered from data analysis"}},
		},
		"google": {
			{"gmail.search_messages", "Search Gmail messages with Gmail search operators (from:, subject:, after:, has:attachment).", []string{"query: Gmail search query", "max_results: Maximum number of messages"}},
			{"gmail.get_message", "Get the full content of a Gmail message by its ID, headers and body.", []string{"message_id: The message ID"}},
			{"gmail.send_message", "Send an email from the user's Gmail account.", []string{"to: Recipient email addresses", "subject: Email subject", "body: Email body", "cc: CC recipients"}},
			{"gmail.create_draft", "Create a draft email without sending it.", []string{"to: Recipient email addresses", "subject: Email subject", "body: Email body"}},
			{"drive.search_files", "Search for files in Google Drive by name or full-text content.", []string{"query: Drive search query", "page_size: Number of results"}},
			{"drive.read_file", "Read the content of a Google Drive file; Google Docs are exported as Markdown, Sheets as CSV.", []string{"file_id: The file ID"}},
			{"drive.share_file", "Share a Drive file with a person or group and set their role (reader, commenter, writer).", []string{"file_id: The file ID", "email: Who to share with", "role: reader, commenter or writer"}},
			{"drive.create_folder", "Create a folder in Google Drive.", []string{"name: Folder name", "parent_id: Parent folder ID"}},
			{"calendar.list_events", "List events from a Google Calendar within a time range.", []string{"calendar_id: Calendar ID, 'primary' by default", "time_min: Start of the range (RFC 3339)", "time_max: End of the range (RFC 3339)"}},
			{"calendar.create_event", "Create an event in a Google Calendar, with optional attendees and a Meet link.", []string{"summary: Event title", "start: Start time", "end: End time", "attendees: Attendee email addresses"}},
			{"calendar.update_event", "Update an existing calendar event: its time, title, attendees or location.", []string{"event_id: Event ID", "start: New start time", "end: New end time"}},
			{"calendar.delete_event", "Delete an event from a Google Calendar.", []string{"event_id: Event ID"}},
			{"calendar.find_free_slots", "Find time slots when all the given people are free, from their calendars' free/busy information.", []string{"attendees: Email addresses", "duration_minutes: Length of the meeting", "time_min: Earliest start", "time_max: Latest end"}},
		},
		"kubernetes": {
			{"pods-list", "List all the Kubernetes pods in the current cluster from all namespaces.", []string{"labelSelector: Optional label selector"}},
			{"pods-list-in-namespace", "List all the Kubernetes pods in the specified namespace in the current cluster.", []string{"namespace: Namespace to list pods from", "labelSelector: Optional label selector"}},
			{"pods-get", "Get a Kubernetes Pod in the current or provided namespace with the provided name.", []string{"name: Name of the Pod", "namespace: Namespace of the Pod"}},
			{"pods-delete", "Delete a Kubernetes Pod in the current or provided namespace with the provided name.", []string{"name: Name of the Pod", "namespace: Namespace of the Pod"}},
			{"pods-log", "Get the logs of a Kubernetes Pod in the current or provided namespace with the provided name.", []string{"name: Name of the Pod", "container: Name of the container", "previous: Return the logs of the previous terminated container"}},
			{"pods-exec", "Execute a command in a Kubernetes Pod in the current or provided namespace with the provided name and command.", []string{"name: Name of the Pod", "command: Command to execute, as an array"}},
			{"namespaces-list", "List all the Kubernetes namespaces in the current cluster.", nil},
			{"events-list", "List all the Kubernetes events in the current cluster from all namespaces.", []string{"namespace: Optional namespace"}},
			{"deployments-scale", "Scale a Kubernetes Deployment to the given number of replicas.", []string{"name: Deployment name", "namespace: Namespace", "replicas: Desired replica count"}},
			{"resources-create-or-update", "Create or update a Kubernetes resource in the current cluster by providing a YAML or JSON representation of the resource.", []string{"resource: A JSON or YAML containing a representation of the Kubernetes resource"}},
		},
		"docker": {
			{"list_containers", "List all Docker containers.", []string{"all: Show all containers (default shows just running)"}},
			{"run_container", "Create and start a new Docker container from an image.", []string{"image: Container image", "name: Container name", "ports: Port mappings", "environment: Environment variables"}},
			{"stop_container", "Stop a running Docker container.", []string{"container_id: Container ID or name"}},
			{"remove_container", "Remove a Docker container.", []string{"container_id: Container ID or name", "force: Force removal"}},
			{"fetch_container_logs", "Fetch the logs (stdout and stderr) of a Docker container.", []string{"container_id: Container ID or name", "tail: Number of lines"}},
			{"list_images", "List Docker images.", nil},
			{"pull_image", "Pull a Docker image from a registry.", []string{"repository: Image repository", "tag: Image tag"}},
			{"remove_image", "Remove a Docker image.", []string{"image_id: Image ID or name"}},
			{"list_volumes", "List Docker volumes.", nil},
		},
		"notion": {
			{"API-post-search", "Notion | Search by title", []string{"query: The text that the API compares page and database titles against", "filter: Limit the results to pages or databases"}},
			{"API-retrieve-a-page", "Notion | Retrieve a page", []string{"page_id: Identifier for a Notion page"}},
			{"API-post-page", "Notion | Create a page", []string{"parent: The parent page or database", "properties: Page properties", "children: Page content as blocks"}},
			{"API-patch-page", "Notion | Update page properties", []string{"page_id: Identifier for a Notion page", "properties: Properties to update", "archived: Archive the page"}},
			{"API-get-block-children", "Notion | Retrieve block children", []string{"block_id: Identifier for a block"}},
			{"API-patch-block-children", "Notion | Append block children", []string{"block_id: Identifier for a block", "children: Child content to append to a container block as an array of block objects"}},
			{"API-post-database-query", "Notion | Query a database", []string{"database_id: Identifier for a Notion database", "filter: When supplied, limits which pages are returned", "sorts: When supplied, orders the results"}},
			{"API-create-a-comment", "Notion | Create comment", []string{"parent: The page to comment on", "rich_text: The comment"}},
		},
		"sentry": {
			{"list_issues", "List the issues (grouped errors) of a Sentry project, most frequent first.", []string{"organization_slug: Organization", "project_slug: Project", "query: Sentry search query, e.g. is:unresolved environment:production"}},
			{"get_issue_details", "Retrieve a Sentry issue's details: the latest event, its stack trace, tags and how many users it affects.", []string{"issue_id: Issue ID or URL"}},
			{"update_issue", "Update a Sentry issue's status (resolved, ignored, unresolved) or assignee.", []string{"issue_id: Issue ID", "status: New status", "assignedTo: User or team"}},
			{"list_releases", "List the releases of a Sentry project, with their new issues and crash-free rates.", []string{"project_slug: Project"}},
			{"search_events", "Search the error and transaction events of an organization with a query.", []string{"query: Search query", "dataset: errors or transactions"}},
		},
		"browser": {
			{"browser_navigate", "Navigate to a URL", []string{"url: The URL to navigate to"}},
			{"browser_click", "Perform click on a web page", []string{"element: Human-readable element description", "ref: Exact target element reference from the page snapshot"}},
			{"browser_type", "Type text into editable element", []string{"element: Human-readable element description", "text: Text to type into the element", "submit: Whether to submit entered text (press Enter after)"}},
			{"browser_take_screenshot", "Take a screenshot of the current page.", []string{"fullPage: Take a screenshot of the full scrollable page"}},
			{"browser_snapshot", "Capture accessibility snapshot of the current page, this is better than screenshot", nil},
			{"browser_navigate_back", "Go back to the previous page", nil},
		},
		"fetch": {
			{"fetch", "Fetches a URL from the internet and optionally extracts its contents as markdown.", []string{"url: URL to fetch", "max_length: Maximum number of characters to return", "raw: Get the actual HTML content without simplification"}},
		},
	}
	sources := map[string]Source{}
	for alias, list := range servers {
		var defs []*sdk.Tool
		for _, t := range list {
			props := map[string]any{}
			for _, p := range t.params {
				name, desc, _ := strings.Cut(p, ": ")
				props[name] = map[string]any{"type": "string", "description": desc}
			}
			defs = append(defs, &sdk.Tool{Name: t.name, Description: t.desc, InputSchema: map[string]any{"type": "object", "properties": props}})
		}
		sources[alias] = Source{Tools: defs}
	}
	queries := []query{
		{"show me the open bugs reported in octocat/hello-world", "github.list_issues"},
		{"what does issue 142 in the deckhand github repo say", "github.get_issue"},
		{"file a bug on github about the crash on startup", "github.create_issue"},
		{"close issue 88 on github", "github.update_issue"},
		{"merge PR 17 in our github repo", "github.merge_pull_request"},
		{"what changed in pull request 12, show me the diff", "github.get_pull_request_diff"},
		{"read package.json from the main branch on github", "github.get_file_contents"},
		{"did the github actions build pass on main", "github.list_workflow_runs"},

		{"list open merge requests in the gitlab project", "gitlab.list_merge_requests"},
		{"why did the gitlab CI job fail, show its log", "gitlab.get_job_log"},
		{"rerun the failed gitlab job", "gitlab.retry_job"},
		{"open a merge request from feature-x into main on gitlab", "gitlab.create_merge_request"},

		{"find all jira tickets assigned to me that are still open", "jira.jira_search"},
		{"move PROJ-12 to In Progress", "jira.jira_transition_issue"},
		{"log 3 hours of work on PROJ-45", "jira.jira_add_worklog"},
		{"which tickets are in the current sprint", "jira.jira_get_sprint_issues"},
		{"leave a comment on jira ticket OPS-3 saying the fix is deployed", "jira.jira_add_comment"},
		{"create a jira story for the new login page", "jira.jira_create_issue"},

		{"what linear issues are assigned to me", "linear.listIssues"},
		{"create a linear ticket for the billing bug", "linear.createIssue"},
		{"which teams exist in our linear workspace", "linear.listTeams"},
		{"mark linear issue ENG-42 as done", "linear.updateIssue"},
		{"what's planned for the current linear cycle", "linear.listCycles"},

		{"show me what's inside config.yaml", "filesystem.read_text_file"},
		{"save these notes to notes.md", "filesystem.write_file"},
		{"what files are in the src folder", "filesystem.list_directory"},
		{"rename draft.txt to final.txt", "filesystem.move_file"},
		{"find all the .go files under this project", "filesystem.search_files"},
		{"how big is backup.tar and when was it last modified", "filesystem.get_file_info"},
		{"make a folder called archive", "filesystem.create_directory"},
		{"replace the word foo with bar in main.py", "filesystem.edit_file"},

		{"post 'deploy done' in the #releases slack channel", "slack.slack_post_message"},
		{"what has been said in #general today", "slack.slack_get_channel_history"},
		{"reply in the slack thread about the outage", "slack.slack_reply_to_thread"},
		{"react with a thumbs up to that message", "slack.slack_add_reaction"},
		{"who is in our slack workspace", "slack.slack_get_users"},
		{"find slack messages mentioning the migration", "slack.slack_search_messages"},

		{"run select count(*) from orders on the postgres database", "postgres.execute_sql"},
		{"which tables does the public schema have in postgres", "postgres.list_objects"},
		{"why is this query slow, show the plan", "postgres.explain_query"},
		{"what are the slowest queries on the postgres database", "postgres.get_top_queries"},
		{"check the health of our postgres database", "postgres.analyze_db_health"},
		{"suggest indexes for the postgres workload", "postgres.analyze_workload_indexes"},
		{"what columns does the users table have in postgres", "postgres.get_object_details"},

		{"create a table for contacts in the sqlite db", "sqlite.create_table"},
		{"insert a row into the sqlite expenses table", "sqlite.write_query"},
		{"list tables in the local sqlite database", "sqlite.list_tables"},
		{"select the ten largest expenses from sqlite", "sqlite.read_query"},

		{"what meetings do I have tomorrow", "google.calendar.list_events"},
		{"schedule a call with Dana on Friday at 3pm", "google.calendar.create_event"},
		{"push my 2pm meeting to 4pm", "google.calendar.update_event"},
		{"when are both Ana and I free next week", "google.calendar.find_free_slots"},
		{"email the report to bob@example.com", "google.gmail.send_message"},
		{"find emails from my landlord about the lease", "google.gmail.search_messages"},
		{"share the budget spreadsheet with finance", "google.drive.share_file"},
		{"find the Q3 planning doc in my drive", "google.drive.search_files"},

		{"show the pods in the staging namespace", "kubernetes.pods-list-in-namespace"},
		{"why is the api pod crashing, get its logs", "kubernetes.pods-log"},
		{"run a shell command inside the web pod", "kubernetes.pods-exec"},
		{"scale the frontend deployment to 5 replicas", "kubernetes.deployments-scale"},
		{"what warnings has the cluster reported recently", "kubernetes.events-list"},
		{"kill the stuck worker pod", "kubernetes.pods-delete"},

		{"what docker containers are running", "docker.list_containers"},
		{"start a postgres container", "docker.run_container"},
		{"show the output of the nginx container", "docker.fetch_container_logs"},
		{"download the latest redis image", "docker.pull_image"},
		{"remove the old test container", "docker.remove_container"},
		{"stop the redis container", "docker.stop_container"},

		{"find my notion page about onboarding", "notion.API-post-search"},
		{"add a paragraph to the meeting notes page in notion", "notion.API-patch-block-children"},
		{"create a new notion page for the retro", "notion.API-post-page"},
		{"query the tasks database in notion for items due this week", "notion.API-post-database-query"},

		{"what errors are happening in production", "sentry.list_issues"},
		{"show the stack trace for sentry issue PROJ-1A2", "sentry.get_issue_details"},
		{"mark the sentry issue as resolved", "sentry.update_issue"},

		{"open example.com in the browser", "browser.browser_navigate"},
		{"take a screenshot of the page", "browser.browser_take_screenshot"},
		{"click the sign in button", "browser.browser_click"},
		{"type my username into the login field", "browser.browser_type"},

		{"get the text of the web page at https://go.dev/doc", "fetch.fetch"},
	}
	return sources, queries
}
