#!/usr/bin/env python3
"""Writes the synthetic part of the search benchmark's catalog.

catalog/everything.json, filesystem.json and memory.json are the real
tools/list answers of the npm servers (dumped from them); every other file in
catalog/ is written by this script from the compact specs below: tool
definitions of the kinds people connect (git, issue trackers, calendars, mail,
chat, databases, cloud consoles, containers, browsers, documents, payments),
modelled on the public MCP servers for them.

Spec lines: name|annotations|description|params, where annotations are r
(read-only), w (writes), d (destructive) with x for tools that reach outside
the machine, and params are name:type[*]:description separated by ';' (* marks
a required parameter).

Run from this folder: python3 gen_catalog.py
"""
import json
import os

SERVERS = {}

SERVERS["git"] = """
status|r|Show the working tree status: staged, unstaged and untracked files.|repo_path:string*:Path to the git repository
diff_unstaged|r|Show changes in the working directory that are not yet staged.|repo_path:string*:Path to the repository;context_lines:integer:Lines of context
diff_staged|r|Show changes that are staged for the next commit.|repo_path:string*:Path to the repository;context_lines:integer:Lines of context
diff|r|Show differences between the working tree and a branch or commit.|repo_path:string*:Path to the repository;target:string*:Branch or commit to compare with
commit|w|Record the staged changes in the repository with a message.|repo_path:string*:Path to the repository;message:string*:Commit message
add|w|Add file contents to the staging area.|repo_path:string*:Path to the repository;files:array*:Paths to stage
reset|d|Unstage all staged changes.|repo_path:string*:Path to the repository
log|r|Show the commit history: hashes, authors, dates and messages.|repo_path:string*:Path to the repository;max_count:integer:How many commits;author:string:Only commits by this author
create_branch|w|Create a new branch from an optional start point.|repo_path:string*:Path to the repository;branch_name:string*:Name of the new branch;base_branch:string:Start point
checkout|w|Switch to another branch.|repo_path:string*:Path to the repository;branch_name:string*:Branch to switch to
show|r|Show the contents and metadata of a commit.|repo_path:string*:Path to the repository;revision:string*:Commit hash or reference
list_branches|r|List local or remote branches.|repo_path:string*:Path to the repository;branch_type:string:local, remote or all
delete_branch|d|Delete a local branch.|repo_path:string*:Path to the repository;branch_name:string*:Branch to delete;force:boolean:Delete even if not merged
merge|w|Merge another branch into the current one.|repo_path:string*:Path to the repository;branch_name:string*:Branch to merge
rebase|d|Reapply the current branch's commits on top of another base.|repo_path:string*:Path to the repository;onto:string*:New base
stash|w|Stash the changes in the working directory away.|repo_path:string*:Path to the repository;message:string:Stash message
stash_pop|w|Apply the most recent stash and remove it.|repo_path:string*:Path to the repository
blame|r|Show which commit and author last modified each line of a file.|repo_path:string*:Path to the repository;file:string*:File to annotate
tag|w|Create a tag at the current commit.|repo_path:string*:Path to the repository;name:string*:Tag name;message:string:Annotation
list_tags|r|List the repository's tags.|repo_path:string*:Path to the repository
remote_list|r|List the configured remotes and their URLs.|repo_path:string*:Path to the repository
pull|wx|Fetch from a remote and integrate with the current branch.|repo_path:string*:Path to the repository;remote:string:Remote name
push|wx|Update the remote branch with local commits.|repo_path:string*:Path to the repository;remote:string:Remote name;branch:string:Branch to push
clone|wx|Clone a repository into a new directory.|url:string*:Repository URL;directory:string*:Where to clone it
init|w|Create an empty git repository.|repo_path:string*:Directory for the new repository
"""

SERVERS["github"] = """
get_me|rx|Get details of the authenticated GitHub user.|
search_repositories|rx|Search for GitHub repositories by keywords, language or topic.|query:string*:Search query;page:integer:Page number;perPage:integer:Results per page
create_repository|wx|Create a new GitHub repository in your account.|name:string*:Repository name;description:string:Description;private:boolean:Whether the repository is private
fork_repository|wx|Fork a GitHub repository to your account or an organization.|owner:string*:Repository owner;repo:string*:Repository name;organization:string:Organization to fork to
get_file_contents|rx|Get the contents of a file or directory from a GitHub repository.|owner:string*:Repository owner;repo:string*:Repository name;path:string*:Path to the file or directory;branch:string:Branch
create_or_update_file|wx|Create or update a single file in a GitHub repository.|owner:string*:Repository owner;repo:string*:Repository name;path:string*:File path;content:string*:New content;message:string*:Commit message;branch:string*:Branch;sha:string:SHA of the file being replaced
push_files|wx|Push several files to a GitHub repository in one commit.|owner:string*:Repository owner;repo:string*:Repository name;branch:string*:Branch;files:array*:Files with path and content;message:string*:Commit message
create_branch|wx|Create a new branch in a GitHub repository.|owner:string*:Repository owner;repo:string*:Repository name;branch:string*:New branch name;from_branch:string:Source branch
list_commits|rx|List the commits of a branch in a GitHub repository.|owner:string*:Repository owner;repo:string*:Repository name;sha:string:Branch or commit
search_code|rx|Search for code across GitHub repositories.|q:string*:Search query using GitHub code search syntax;per_page:integer:Results per page
create_issue|wx|Create a new issue in a GitHub repository.|owner:string*:Repository owner;repo:string*:Repository name;title:string*:Issue title;body:string:Issue body;labels:array:Labels;assignees:array:Usernames to assign
get_issue|rx|Get the details of an issue in a GitHub repository.|owner:string*:Repository owner;repo:string*:Repository name;issue_number:number*:Issue number
list_issues|rx|List issues in a GitHub repository, filtered by state and labels.|owner:string*:Repository owner;repo:string*:Repository name;state:string:open, closed or all;labels:array:Labels to filter by
update_issue|wx|Update an existing issue: title, body, state, labels or assignees.|owner:string*:Repository owner;repo:string*:Repository name;issue_number:number*:Issue number;state:string:open or closed;title:string:New title
add_issue_comment|wx|Add a comment to an issue or pull request.|owner:string*:Repository owner;repo:string*:Repository name;issue_number:number*:Issue number;body:string*:Comment text
search_issues|rx|Search issues and pull requests across GitHub repositories.|q:string*:Search query;sort:string:Sort field
create_pull_request|wx|Create a new pull request in a GitHub repository.|owner:string*:Repository owner;repo:string*:Repository name;title:string*:PR title;head:string*:Branch with the changes;base:string*:Branch to merge into;body:string:Description;draft:boolean:Create as draft
get_pull_request|rx|Get the details of a pull request.|owner:string*:Repository owner;repo:string*:Repository name;pull_number:number*:Pull request number
list_pull_requests|rx|List pull requests in a GitHub repository.|owner:string*:Repository owner;repo:string*:Repository name;state:string:open, closed or all
merge_pull_request|wx|Merge a pull request.|owner:string*:Repository owner;repo:string*:Repository name;pull_number:number*:Pull request number;merge_method:string:merge, squash or rebase
get_pull_request_files|rx|Get the list of files changed in a pull request.|owner:string*:Repository owner;repo:string*:Repository name;pull_number:number*:Pull request number
get_pull_request_status|rx|Get the combined status of all status checks for a pull request.|owner:string*:Repository owner;repo:string*:Repository name;pull_number:number*:Pull request number
create_pull_request_review|wx|Create a review on a pull request: approve, request changes or comment.|owner:string*:Repository owner;repo:string*:Repository name;pull_number:number*:Pull request number;event:string*:APPROVE, REQUEST_CHANGES or COMMENT;body:string:Review text
get_pull_request_comments|rx|Get the review comments on a pull request.|owner:string*:Repository owner;repo:string*:Repository name;pull_number:number*:Pull request number
list_workflow_runs|rx|List GitHub Actions workflow runs of a repository.|owner:string*:Repository owner;repo:string*:Repository name;status:string:Filter by status
rerun_workflow_run|wx|Re-run a GitHub Actions workflow run.|owner:string*:Repository owner;repo:string*:Repository name;run_id:number*:Workflow run id
get_workflow_run_logs|rx|Download the logs of a GitHub Actions workflow run.|owner:string*:Repository owner;repo:string*:Repository name;run_id:number*:Workflow run id
list_releases|rx|List the releases of a repository.|owner:string*:Repository owner;repo:string*:Repository name
create_release|wx|Create a release from a tag, with notes.|owner:string*:Repository owner;repo:string*:Repository name;tag_name:string*:Tag;name:string:Release title;body:string:Release notes
list_notifications|rx|List your GitHub notifications.|all:boolean:Include read notifications
dismiss_notification|wx|Mark a notification as read or done.|threadID:string*:Notification thread id
star_repository|wx|Star a GitHub repository.|owner:string*:Repository owner;repo:string*:Repository name
"""

SERVERS["jira"] = """
search_issues|rx|Search Jira issues with JQL.|jql:string*:JQL query;max_results:integer:How many issues
get_issue|rx|Get a Jira issue by key, with its fields, status and comments.|issue_key:string*:Issue key such as PROJ-123
create_issue|wx|Create a Jira issue in a project.|project_key:string*:Project key;summary:string*:Summary;issue_type:string*:Bug, Task, Story or Epic;description:string:Description;priority:string:Priority
update_issue|wx|Update the fields of a Jira issue.|issue_key:string*:Issue key;fields:object*:Fields to change
delete_issue|dx|Delete a Jira issue.|issue_key:string*:Issue key
transition_issue|wx|Move a Jira issue to another status, such as In Progress or Done.|issue_key:string*:Issue key;transition:string*:Target status
add_comment|wx|Add a comment to a Jira issue.|issue_key:string*:Issue key;body:string*:Comment text
assign_issue|wx|Assign a Jira issue to a user.|issue_key:string*:Issue key;account_id:string*:Assignee
get_transitions|rx|List the status transitions available for a Jira issue.|issue_key:string*:Issue key
list_projects|rx|List the Jira projects you can see.|
get_project|rx|Get a Jira project's details, components and versions.|project_key:string*:Project key
list_sprints|rx|List the sprints of a Jira board.|board_id:integer*:Board id;state:string:active, future or closed
get_sprint_issues|rx|Get the issues in a Jira sprint.|sprint_id:integer*:Sprint id
add_to_sprint|wx|Move issues into a sprint.|sprint_id:integer*:Sprint id;issue_keys:array*:Issue keys
create_sprint|wx|Create a new sprint on a board.|board_id:integer*:Board id;name:string*:Sprint name;start_date:string:Start;end_date:string:End
list_boards|rx|List Jira agile boards.|project_key:string:Only boards of this project
add_worklog|wx|Log time spent on a Jira issue.|issue_key:string*:Issue key;time_spent:string*:Time such as 2h 30m;comment:string:What was done
get_worklogs|rx|Get the time logged on a Jira issue.|issue_key:string*:Issue key
link_issues|wx|Link two Jira issues, such as blocks or duplicates.|inward_issue:string*:Issue key;outward_issue:string*:Issue key;link_type:string*:Link type
add_attachment|wx|Attach a file to a Jira issue.|issue_key:string*:Issue key;file_path:string*:File to attach
get_user|rx|Find a Jira user by name or email.|query:string*:Name or email
list_versions|rx|List the fix versions of a Jira project.|project_key:string*:Project key
"""

SERVERS["linear"] = """
list_issues|rx|List Linear issues assigned to you or in a team, by state.|team:string:Team key;assignee:string:Assignee;state:string:Workflow state
get_issue|rx|Get a Linear issue with its description, comments and attachments.|id:string*:Issue id or identifier
create_issue|wx|Create a Linear issue in a team.|team:string*:Team key;title:string*:Title;description:string:Markdown description;priority:integer:0 to 4;assignee:string:Assignee
update_issue|wx|Update a Linear issue: title, state, priority, assignee, labels.|id:string*:Issue id;state:string:New state;priority:integer:Priority
search_issues|rx|Full-text search over Linear issues.|query:string*:Search text
create_comment|wx|Comment on a Linear issue.|issue_id:string*:Issue id;body:string*:Markdown comment
list_projects|rx|List Linear projects and their progress.|team:string:Team key
get_project|rx|Get a Linear project with its milestones and issues.|id:string*:Project id
create_project|wx|Create a Linear project.|name:string*:Project name;team:string*:Team key;target_date:string:Target date
list_teams|rx|List the teams in the Linear workspace.|
list_cycles|rx|List a Linear team's cycles.|team:string*:Team key
list_labels|rx|List issue labels.|team:string:Team key
create_label|wx|Create an issue label.|name:string*:Label name;color:string:Hex color
list_users|rx|List the members of the Linear workspace.|
archive_issue|dx|Archive a Linear issue.|id:string*:Issue id
list_documents|rx|List Linear documents.|project:string:Project id
"""

SERVERS["gcal"] = """
list_calendars|rx|List the Google calendars you can access.|
list_events|rx|List events in a Google calendar between two dates.|calendar_id:string:Calendar id (default primary);time_min:string*:Start, RFC 3339;time_max:string*:End, RFC 3339
get_event|rx|Get one calendar event with attendees and conferencing details.|calendar_id:string:Calendar id;event_id:string*:Event id
create_event|wx|Create a calendar event, with attendees and a video call if asked.|summary:string*:Title;start:string*:Start time;end:string*:End time;attendees:array:Attendee emails;location:string:Place;add_meet_link:boolean:Add a Google Meet link
update_event|wx|Change a calendar event: time, title, attendees or location.|event_id:string*:Event id;start:string:New start;end:string:New end;summary:string:New title
delete_event|dx|Delete a calendar event and notify attendees.|event_id:string*:Event id;send_updates:boolean:Email the attendees
find_free_time|rx|Find free slots common to several people's calendars.|attendees:array*:Emails;time_min:string*:Window start;time_max:string*:Window end;duration_minutes:integer*:Meeting length
respond_to_event|wx|Accept, decline or tentatively accept a meeting invitation.|event_id:string*:Event id;response:string*:accepted, declined or tentative
quick_add_event|wx|Create an event from a sentence like "Lunch with Ana tomorrow at noon".|text:string*:Event in plain words
search_events|rx|Search calendar events by text.|query:string*:Words to find;time_min:string:From
list_colors|rx|List the colors available for calendars and events.|
create_calendar|wx|Create a secondary calendar.|summary:string*:Calendar name;time_zone:string:Time zone
share_calendar|wx|Share a calendar with someone.|calendar_id:string*:Calendar id;email:string*:Person to share with;role:string*:reader or writer
get_freebusy|rx|Get busy intervals of calendars.|calendars:array*:Calendar ids;time_min:string*:Start;time_max:string*:End
"""

SERVERS["outlook"] = """
list_messages|rx|List Outlook mail messages in a folder, newest first.|folder:string:Folder name (default Inbox);top:integer:How many;unread_only:boolean:Only unread
get_message|rx|Get an Outlook message with its body and attachments list.|message_id:string*:Message id
send_mail|wx|Send an email from your Outlook account.|to:array*:Recipients;subject:string*:Subject;body:string*:Body;cc:array:Copy to
reply_message|wx|Reply to an Outlook message.|message_id:string*:Message id;comment:string*:Reply text;reply_all:boolean:Reply to all
move_message|wx|Move an Outlook message to another folder.|message_id:string*:Message id;destination:string*:Folder
delete_message|dx|Delete an Outlook message.|message_id:string*:Message id
list_mail_folders|rx|List the mail folders of the Outlook mailbox.|
create_draft|wx|Create a draft email without sending it.|to:array:Recipients;subject:string*:Subject;body:string*:Body
list_calendar_events|rx|List Outlook calendar events in a time window.|start:string*:Start;end:string*:End
create_calendar_event|wx|Create an Outlook calendar event or Teams meeting.|subject:string*:Title;start:string*:Start;end:string*:End;attendees:array:Emails;teams_meeting:boolean:Add a Teams link
list_contacts|rx|List Outlook contacts.|search:string:Name or email to look for
create_contact|wx|Add a contact to Outlook.|given_name:string*:First name;surname:string:Last name;email:string:Email
set_auto_reply|wx|Set the out-of-office automatic reply.|message:string*:Reply text;start:string:From;end:string:Until
list_attachments|rx|List the attachments of an Outlook message.|message_id:string*:Message id
download_attachment|rx|Download an email attachment to a file.|message_id:string*:Message id;attachment_id:string*:Attachment id;save_to:string*:Path
flag_message|wx|Flag an Outlook message for follow-up.|message_id:string*:Message id;due:string:Due date
"""

SERVERS["gmail"] = """
search_emails|rx|Search Gmail messages with Gmail search syntax.|query:string*:Query such as from:ana subject:invoice;max_results:integer:How many
read_email|rx|Read a Gmail message: headers, body and attachment names.|message_id:string*:Message id
send_email|wx|Send an email with Gmail.|to:array*:Recipients;subject:string*:Subject;body:string*:Body;attachments:array:Files to attach
draft_email|wx|Save an email as a Gmail draft.|to:array:Recipients;subject:string*:Subject;body:string*:Body
modify_labels|wx|Add or remove labels on a Gmail message, such as archiving or starring it.|message_id:string*:Message id;add_labels:array:Labels to add;remove_labels:array:Labels to remove
delete_email|dx|Move a Gmail message to the trash.|message_id:string*:Message id
list_labels|rx|List Gmail labels.|
create_label|wx|Create a Gmail label.|name:string*:Label name
batch_modify|wx|Change labels on many Gmail messages at once.|message_ids:array*:Messages;add_labels:array:Labels;remove_labels:array:Labels
create_filter|wx|Create a Gmail filter that labels, archives or forwards matching mail.|criteria:object*:What to match;action:object*:What to do
list_threads|rx|List Gmail conversation threads.|query:string:Search query
get_thread|rx|Get all messages of a Gmail thread.|thread_id:string*:Thread id
mark_as_read|wx|Mark Gmail messages as read.|message_ids:array*:Messages
get_attachment|rx|Save a Gmail attachment to disk.|message_id:string*:Message id;attachment_id:string*:Attachment id;path:string*:Where to save
"""

SERVERS["slack"] = """
list_channels|rx|List public Slack channels in the workspace.|limit:integer:How many;cursor:string:Pagination cursor
post_message|wx|Post a message to a Slack channel.|channel_id:string*:Channel id;text:string*:Message text
reply_to_thread|wx|Reply to a Slack message thread.|channel_id:string*:Channel id;thread_ts:string*:Parent message timestamp;text:string*:Reply text
add_reaction|wx|Add an emoji reaction to a Slack message.|channel_id:string*:Channel id;timestamp:string*:Message timestamp;reaction:string*:Emoji name
get_channel_history|rx|Get recent messages from a Slack channel.|channel_id:string*:Channel id;limit:integer:How many
get_thread_replies|rx|Get all replies in a Slack thread.|channel_id:string*:Channel id;thread_ts:string*:Parent timestamp
get_users|rx|List the users of the Slack workspace with their profiles.|limit:integer:How many
get_user_profile|rx|Get a Slack user's profile.|user_id:string*:User id
search_messages|rx|Search Slack messages across channels.|query:string*:Search words;count:integer:How many
send_direct_message|wx|Send a direct message to a Slack user.|user_id:string*:User id;text:string*:Message
create_channel|wx|Create a Slack channel.|name:string*:Channel name;is_private:boolean:Private channel
invite_to_channel|wx|Invite users to a Slack channel.|channel_id:string*:Channel id;users:array*:User ids
set_channel_topic|wx|Set a Slack channel's topic.|channel_id:string*:Channel id;topic:string*:Topic
upload_file|wx|Upload a file to a Slack channel.|channels:array*:Channels;file_path:string*:File;title:string:Title
schedule_message|wx|Schedule a Slack message for later.|channel_id:string*:Channel id;text:string*:Message;post_at:integer*:Unix time
set_status|wx|Set your Slack status text and emoji.|status_text:string*:Text;status_emoji:string:Emoji;expiration:integer:Unix time
archive_channel|dx|Archive a Slack channel.|channel_id:string*:Channel id
pin_message|wx|Pin a message in a Slack channel.|channel_id:string*:Channel id;timestamp:string*:Message timestamp
"""

SERVERS["postgres"] = """
query|rx|Run a read-only SQL query against the PostgreSQL database.|sql:string*:SELECT statement
execute|dx|Run a SQL statement that changes data or schema: INSERT, UPDATE, DELETE, CREATE, ALTER.|sql:string*:SQL statement
list_schemas|rx|List the schemas in the PostgreSQL database.|
list_tables|rx|List the tables of a schema.|schema:string:Schema name (default public)
describe_table|rx|Describe a table's columns, types, constraints and indexes.|table:string*:Table name;schema:string:Schema
explain_query|rx|Show the execution plan of a query with EXPLAIN ANALYZE.|sql:string*:Query to explain
list_indexes|rx|List the indexes of a table and their sizes.|table:string*:Table name
table_sizes|rx|Show the disk size and row estimate of every table.|schema:string:Schema
active_queries|rx|List the queries running now, with duration and state.|
kill_query|dx|Cancel a running query by its process id.|pid:integer*:Backend process id
list_extensions|rx|List installed PostgreSQL extensions.|
database_health|rx|Check connection counts, cache hit ratio, vacuum and replication lag.|
slow_queries|rx|Show the slowest queries from pg_stat_statements.|limit:integer:How many
create_backup|wx|Dump the database to a file with pg_dump.|path:string*:Output file;format:string:plain or custom
"""

SERVERS["sqlite"] = """
read_query|r|Execute a SELECT query on the SQLite database.|query:string*:SELECT statement
write_query|d|Execute an INSERT, UPDATE or DELETE query on the SQLite database.|query:string*:SQL statement
create_table|w|Create a new table in the SQLite database.|query:string*:CREATE TABLE statement
list_tables|r|List all tables in the SQLite database.|
describe_table|r|Get the schema of a SQLite table.|table_name:string*:Table name
append_insight|w|Add a business insight to the memo.|insight:string*:Insight found in the data
import_csv|w|Import a CSV file into a new SQLite table.|path:string*:CSV file;table_name:string*:Table to create
export_csv|w|Export the result of a query to a CSV file.|query:string*:SELECT statement;path:string*:Output file
vacuum|w|Rebuild the SQLite database file to reclaim space.|
attach_database|w|Attach another SQLite database file.|path:string*:Database file;alias:string*:Schema name
"""

SERVERS["mongodb"] = """
find|rx|Find documents in a MongoDB collection matching a filter.|database:string*:Database;collection:string*:Collection;filter:object:Query filter;limit:integer:How many
aggregate|rx|Run an aggregation pipeline on a MongoDB collection.|database:string*:Database;collection:string*:Collection;pipeline:array*:Stages
count|rx|Count the documents in a collection matching a filter.|database:string*:Database;collection:string*:Collection;filter:object:Query filter
insert_many|wx|Insert documents into a MongoDB collection.|database:string*:Database;collection:string*:Collection;documents:array*:Documents
update_many|wx|Update the documents matching a filter.|database:string*:Database;collection:string*:Collection;filter:object*:Filter;update:object*:Update operators
delete_many|dx|Delete the documents matching a filter.|database:string*:Database;collection:string*:Collection;filter:object*:Filter
list_databases|rx|List the databases on the MongoDB cluster.|
list_collections|rx|List the collections of a database.|database:string*:Database
collection_schema|rx|Infer a collection's schema from sampled documents.|database:string*:Database;collection:string*:Collection
create_index|wx|Create an index on a collection.|database:string*:Database;collection:string*:Collection;keys:object*:Index keys
collection_indexes|rx|List a collection's indexes.|database:string*:Database;collection:string*:Collection
drop_collection|dx|Drop a collection and its indexes.|database:string*:Database;collection:string*:Collection
rename_collection|wx|Rename a collection.|database:string*:Database;collection:string*:Collection;new_name:string*:New name
db_stats|rx|Get storage statistics of a database.|database:string*:Database
"""

SERVERS["redis"] = """
get|rx|Get the string value of a Redis key.|key:string*:Key
set|wx|Set a Redis key to a string value, with an optional expiry.|key:string*:Key;value:string*:Value;expire_seconds:integer:Time to live
delete|dx|Delete one or more Redis keys.|keys:array*:Keys
scan_keys|rx|Find Redis keys matching a pattern, without blocking the server.|pattern:string*:Glob pattern;count:integer:Hint per step
hgetall|rx|Get all fields and values of a Redis hash.|key:string*:Hash key
hset|wx|Set fields of a Redis hash.|key:string*:Hash key;fields:object*:Fields and values
lrange|rx|Get a range of elements from a Redis list.|key:string*:List key;start:integer:From;stop:integer:To
lpush|wx|Push values onto the head of a Redis list.|key:string*:List key;values:array*:Values
ttl|rx|Get the remaining time to live of a key.|key:string*:Key
expire|wx|Set a timeout on a key.|key:string*:Key;seconds:integer*:Seconds
info|rx|Get Redis server information and statistics: memory, clients, keyspace.|section:string:Section
publish|wx|Publish a message to a Redis pub/sub channel.|channel:string*:Channel;message:string*:Message
"""

SERVERS["aws"] = """
ec2_describe_instances|rx|List EC2 instances with their state, type, addresses and tags.|region:string:AWS region;filters:array:Filters
ec2_start_instances|wx|Start stopped EC2 instances.|instance_ids:array*:Instance ids;region:string:Region
ec2_stop_instances|wx|Stop running EC2 instances.|instance_ids:array*:Instance ids;region:string:Region
ec2_terminate_instances|dx|Terminate EC2 instances permanently.|instance_ids:array*:Instance ids;region:string:Region
ec2_run_instances|wx|Launch new EC2 instances from an AMI.|image_id:string*:AMI id;instance_type:string*:Instance type;count:integer:How many;key_name:string:Key pair
ec2_describe_security_groups|rx|List security groups and their inbound and outbound rules.|region:string:Region
ec2_authorize_ingress|wx|Open a port in a security group.|group_id:string*:Security group;port:integer*:Port;cidr:string*:Source range
s3_list_buckets|rx|List the S3 buckets of the account.|
s3_list_objects|rx|List objects in an S3 bucket under a prefix.|bucket:string*:Bucket;prefix:string:Key prefix
s3_get_object|rx|Download an object from an S3 bucket.|bucket:string*:Bucket;key:string*:Object key;save_to:string:Local path
s3_put_object|wx|Upload a file to an S3 bucket.|bucket:string*:Bucket;key:string*:Object key;file_path:string*:Local file
s3_delete_object|dx|Delete an object from an S3 bucket.|bucket:string*:Bucket;key:string*:Object key
s3_create_bucket|wx|Create an S3 bucket.|bucket:string*:Bucket name;region:string:Region
s3_presign_url|rx|Create a temporary download link for an S3 object.|bucket:string*:Bucket;key:string*:Object key;expires_seconds:integer:Lifetime
lambda_list_functions|rx|List Lambda functions with runtime and last modified date.|region:string:Region
lambda_invoke|wx|Invoke a Lambda function with a JSON payload.|function_name:string*:Function;payload:object:Event payload
lambda_get_logs|rx|Get recent CloudWatch logs of a Lambda function.|function_name:string*:Function;minutes:integer:How far back
lambda_update_code|wx|Deploy new code to a Lambda function from a zip file.|function_name:string*:Function;zip_path:string*:Package
cloudwatch_get_metrics|rx|Get CloudWatch metric statistics such as CPU utilization over time.|namespace:string*:Namespace;metric_name:string*:Metric;dimensions:array:Dimensions;period:integer:Seconds
cloudwatch_list_alarms|rx|List CloudWatch alarms and their states.|state:string:OK, ALARM or INSUFFICIENT_DATA
logs_filter_events|rx|Search CloudWatch Logs log groups for matching events.|log_group:string*:Log group;pattern:string:Filter pattern;start_time:string:From
iam_list_users|rx|List IAM users.|
iam_list_roles|rx|List IAM roles and their trust policies.|
iam_get_policy|rx|Get an IAM policy document.|policy_arn:string*:Policy ARN
iam_create_access_key|wx|Create an access key for an IAM user.|user_name:string*:User
rds_describe_instances|rx|List RDS database instances with engine, size and status.|region:string:Region
rds_create_snapshot|wx|Take a snapshot of an RDS database instance.|db_instance:string*:Instance id;snapshot_id:string*:Snapshot name
rds_reboot_instance|wx|Reboot an RDS database instance.|db_instance:string*:Instance id
cost_explorer_get_costs|rx|Get AWS costs and usage grouped by service for a time period.|start:string*:Start date;end:string*:End date;granularity:string:DAILY or MONTHLY
route53_list_records|rx|List DNS records of a Route 53 hosted zone.|zone_id:string*:Hosted zone
route53_change_record|wx|Create, update or delete a DNS record in Route 53.|zone_id:string*:Hosted zone;name:string*:Record name;type:string*:A, CNAME, TXT…;value:string*:Value;action:string*:UPSERT or DELETE
sqs_send_message|wx|Send a message to an SQS queue.|queue_url:string*:Queue;body:string*:Message body
sqs_receive_messages|rx|Receive messages from an SQS queue.|queue_url:string*:Queue;max:integer:How many
dynamodb_query|rx|Query a DynamoDB table by partition key.|table:string*:Table;key_condition:string*:Key condition;values:object*:Expression values
dynamodb_put_item|wx|Write an item to a DynamoDB table.|table:string*:Table;item:object*:Item
cloudformation_list_stacks|rx|List CloudFormation stacks and their status.|status:string:Filter by status
"""

SERVERS["gcp"] = """
compute_list_instances|rx|List Compute Engine VM instances in a project and zone.|project:string*:Project id;zone:string:Zone
compute_start_instance|wx|Start a Compute Engine VM.|project:string*:Project id;zone:string*:Zone;instance:string*:Instance name
compute_stop_instance|wx|Stop a Compute Engine VM.|project:string*:Project id;zone:string*:Zone;instance:string*:Instance name
compute_delete_instance|dx|Delete a Compute Engine VM.|project:string*:Project id;zone:string*:Zone;instance:string*:Instance name
storage_list_buckets|rx|List Cloud Storage buckets.|project:string*:Project id
storage_list_objects|rx|List objects in a Cloud Storage bucket.|bucket:string*:Bucket;prefix:string:Prefix
storage_upload|wx|Upload a file to Cloud Storage.|bucket:string*:Bucket;name:string*:Object name;file_path:string*:Local file
storage_download|rx|Download an object from Cloud Storage.|bucket:string*:Bucket;name:string*:Object name;path:string*:Local path
bigquery_query|rx|Run a BigQuery SQL query and return the rows.|project:string*:Project id;sql:string*:Query;max_rows:integer:Row limit
bigquery_list_datasets|rx|List BigQuery datasets of a project.|project:string*:Project id
bigquery_list_tables|rx|List the tables in a BigQuery dataset.|project:string*:Project id;dataset:string*:Dataset
bigquery_get_table_schema|rx|Get a BigQuery table's schema.|project:string*:Project id;dataset:string*:Dataset;table:string*:Table
run_list_services|rx|List Cloud Run services with URLs and latest revisions.|project:string*:Project id;region:string:Region
run_deploy|wx|Deploy a container image to Cloud Run.|project:string*:Project id;service:string*:Service name;image:string*:Container image;region:string*:Region
functions_list|rx|List Cloud Functions.|project:string*:Project id
logging_read|rx|Read Cloud Logging entries matching a filter.|project:string*:Project id;filter:string*:Logging filter;limit:integer:How many
monitoring_query|rx|Query Cloud Monitoring time series such as CPU or request latency.|project:string*:Project id;query:string*:MQL or PromQL query
iam_get_policy|rx|Get the IAM policy of a project.|project:string*:Project id
iam_add_binding|wx|Grant a role to a member on a project.|project:string*:Project id;member:string*:user:… or serviceAccount:…;role:string*:Role
pubsub_publish|wx|Publish a message to a Pub/Sub topic.|project:string*:Project id;topic:string*:Topic;data:string*:Message
pubsub_list_topics|rx|List Pub/Sub topics.|project:string*:Project id
billing_get_costs|rx|Get the cost of a billing account per service for a month.|billing_account:string*:Billing account;month:string*:YYYY-MM
projects_list|rx|List the Google Cloud projects you can access.|
sql_list_instances|rx|List Cloud SQL database instances.|project:string*:Project id
"""

SERVERS["k8s"] = """
get_pods|rx|List pods in a namespace with their status, restarts and age.|namespace:string:Namespace;label_selector:string:Labels
describe_pod|rx|Describe a pod: containers, events, conditions and resource use.|name:string*:Pod name;namespace:string:Namespace
pod_logs|rx|Get the logs of a pod's container.|name:string*:Pod name;namespace:string:Namespace;container:string:Container;tail:integer:Last lines;previous:boolean:From the previous crash
exec_in_pod|dx|Run a command inside a pod's container.|name:string*:Pod name;namespace:string:Namespace;command:array*:Command and arguments
delete_pod|dx|Delete a pod (its controller usually starts a new one).|name:string*:Pod name;namespace:string:Namespace
get_deployments|rx|List deployments with replicas ready and images.|namespace:string:Namespace
scale_deployment|wx|Change the number of replicas of a deployment.|name:string*:Deployment;replicas:integer*:Replica count;namespace:string:Namespace
rollout_restart|wx|Restart a deployment's pods with a rolling update.|name:string*:Deployment;namespace:string:Namespace
rollout_undo|wx|Roll a deployment back to its previous revision.|name:string*:Deployment;namespace:string:Namespace
rollout_status|rx|Watch the progress of a deployment rollout.|name:string*:Deployment;namespace:string:Namespace
get_services|rx|List services with their type, cluster IP and ports.|namespace:string:Namespace
get_ingresses|rx|List ingresses with hosts and backends.|namespace:string:Namespace
get_namespaces|rx|List the cluster's namespaces.|
create_namespace|wx|Create a namespace.|name:string*:Namespace
apply_manifest|wx|Apply a YAML manifest to the cluster (kubectl apply).|manifest:string*:YAML;namespace:string:Namespace
delete_resource|dx|Delete a resource by kind and name.|kind:string*:Kind;name:string*:Name;namespace:string:Namespace
get_events|rx|List recent cluster events, warnings first.|namespace:string:Namespace
get_nodes|rx|List nodes with status, roles, version and capacity.|
top_pods|rx|Show CPU and memory usage of pods.|namespace:string:Namespace
top_nodes|rx|Show CPU and memory usage of nodes.|
get_configmap|rx|Get a ConfigMap's data.|name:string*:ConfigMap;namespace:string:Namespace
get_secret_names|rx|List the names of secrets in a namespace (never their values).|namespace:string:Namespace
port_forward|wx|Forward a local port to a pod or service.|resource:string*:pod/name or svc/name;ports:string*:local:remote;namespace:string:Namespace
helm_list_releases|rx|List Helm releases in the cluster.|namespace:string:Namespace
helm_upgrade|wx|Install or upgrade a Helm chart release.|release:string*:Release name;chart:string*:Chart;values:object:Values;namespace:string:Namespace
"""

SERVERS["docker"] = """
list_containers|r|List Docker containers, running or all.|all:boolean:Include stopped containers
run_container|w|Create and start a container from an image.|image:string*:Image;name:string:Container name;ports:object:Port mappings;env:object:Environment;detach:boolean:Run in background
stop_container|w|Stop a running container.|container_id:string*:Container id or name
start_container|w|Start a stopped container.|container_id:string*:Container id or name
remove_container|d|Remove a container.|container_id:string*:Container id or name;force:boolean:Kill it first
container_logs|r|Get the logs of a container.|container_id:string*:Container id or name;tail:integer:Last lines;since:string:Since
container_stats|r|Show live CPU, memory, network and disk use of containers.|container_id:string:One container
exec_command|d|Run a command in a running container.|container_id:string*:Container;command:array*:Command
inspect_container|r|Show low-level details of a container: config, mounts, network.|container_id:string*:Container
list_images|r|List local Docker images with tags and sizes.|
pull_image|wx|Pull an image from a registry.|image:string*:Image and tag
build_image|w|Build an image from a Dockerfile.|context_path:string*:Build context;tag:string*:Image tag;dockerfile:string:Dockerfile path
remove_image|d|Remove a local image.|image:string*:Image
push_image|wx|Push an image to a registry.|image:string*:Image and tag
list_volumes|r|List Docker volumes.|
create_volume|w|Create a Docker volume.|name:string*:Volume name
list_networks|r|List Docker networks.|
compose_up|w|Start the services of a docker compose project.|project_dir:string*:Folder with compose.yaml;detach:boolean:Run in background
compose_down|d|Stop and remove the containers of a compose project.|project_dir:string*:Folder with compose.yaml;volumes:boolean:Remove volumes
prune|d|Remove unused containers, images, networks and build cache.|all:boolean:Also unused images
"""

SERVERS["browser"] = """
navigate|wx|Open a URL in the browser tab.|url:string*:Address to open
navigate_back|wx|Go back to the previous page.|
snapshot|rx|Capture an accessibility snapshot of the current page: its text, links and controls with references.|
take_screenshot|rx|Take a screenshot of the page or of one element.|element_ref:string:Element to capture;full_page:boolean:Whole page;filename:string:Where to save
click|wx|Click an element on the page.|element_ref:string*:Element reference from the snapshot;double_click:boolean:Double click
type_text|wx|Type text into an input field.|element_ref:string*:Input element;text:string*:Text;submit:boolean:Press Enter after
hover|wx|Move the mouse over an element.|element_ref:string*:Element
select_option|wx|Choose an option in a dropdown.|element_ref:string*:Select element;values:array*:Options
press_key|wx|Press a key such as Enter, Escape or ArrowDown.|key:string*:Key name
fill_form|wx|Fill several form fields at once.|fields:array*:Field references and values
wait_for|rx|Wait for text to appear or disappear, or for some seconds.|text:string:Text to wait for;time:number:Seconds
evaluate|wx|Run JavaScript in the page and return the result.|function:string*:JavaScript function
console_messages|rx|Get the messages logged to the browser console.|
network_requests|rx|List the network requests the page made.|
tabs_list|rx|List the open browser tabs.|
tab_new|wx|Open a new browser tab.|url:string:Address
tab_close|wx|Close a browser tab.|index:integer:Tab index
file_upload|wx|Upload files through the page's file chooser.|paths:array*:Files
handle_dialog|wx|Accept or dismiss a browser dialog such as an alert or confirm.|accept:boolean*:Accept it;prompt_text:string:Text for a prompt
pdf_save|rx|Save the current page as a PDF file.|filename:string:Where to save
drag|wx|Drag one element onto another.|start_ref:string*:Element to drag;end_ref:string*:Drop target
resize|wx|Resize the browser window.|width:integer*:Width;height:integer*:Height
get_cookies|rx|Get the cookies of the current site.|
scroll|wx|Scroll the page up or down.|direction:string*:up or down;amount:integer:Pixels
close|wx|Close the browser.|
install|wx|Install the browser if it is missing.|
"""

SERVERS["notion"] = """
search|rx|Search Notion pages and databases by title.|query:string*:Words to find;filter:string:page or database
get_page|rx|Get a Notion page's properties.|page_id:string*:Page id
get_page_content|rx|Get the blocks (content) of a Notion page.|page_id:string*:Page id
create_page|wx|Create a Notion page under a page or in a database.|parent_id:string*:Parent page or database;title:string*:Title;content:string:Markdown content;properties:object:Database properties
update_page|wx|Update a Notion page's properties or archive it.|page_id:string*:Page id;properties:object:Properties;archived:boolean:Archive
append_blocks|wx|Append content blocks to a Notion page.|page_id:string*:Page id;content:string*:Markdown to append
delete_block|dx|Delete a block from a Notion page.|block_id:string*:Block id
query_database|rx|Query a Notion database with filters and sorts.|database_id:string*:Database id;filter:object:Filter;sorts:array:Sorts
create_database|wx|Create a Notion database with a schema.|parent_id:string*:Parent page;title:string*:Title;properties:object*:Columns
get_database|rx|Get a Notion database's schema.|database_id:string*:Database id
list_users|rx|List the people in the Notion workspace.|
create_comment|wx|Comment on a Notion page or discussion.|page_id:string*:Page id;text:string*:Comment
get_comments|rx|Get the comments of a Notion page.|page_id:string*:Page id
move_page|wx|Move a Notion page to another parent.|page_id:string*:Page id;new_parent_id:string*:New parent
duplicate_page|wx|Duplicate a Notion page.|page_id:string*:Page id
get_self|rx|Get the Notion integration's bot user.|
"""

SERVERS["gdrive"] = """
search_files|rx|Search Google Drive for files by name or content.|query:string*:Words to find;mime_type:string:File type
list_files|rx|List files in a Google Drive folder.|folder_id:string:Folder (default root);page_size:integer:How many
read_file|rx|Read a Google Drive file; Docs, Sheets and Slides are exported as text.|file_id:string*:File id
upload_file|wx|Upload a local file to Google Drive.|path:string*:Local file;folder_id:string:Destination folder;name:string:Name in Drive
create_folder|wx|Create a folder in Google Drive.|name:string*:Folder name;parent_id:string:Parent folder
move_file|wx|Move a Drive file to another folder.|file_id:string*:File id;folder_id:string*:New folder
rename_file|wx|Rename a Drive file.|file_id:string*:File id;name:string*:New name
delete_file|dx|Move a Drive file to the trash.|file_id:string*:File id
share_file|wx|Share a Drive file with a person or make a link.|file_id:string*:File id;email:string:Person;role:string*:reader, commenter or writer
download_file|rx|Download a Drive file to disk.|file_id:string*:File id;path:string*:Local path
sheets_read_range|rx|Read cells from a Google Sheets spreadsheet.|spreadsheet_id:string*:Spreadsheet;range:string*:A1 range
sheets_update_range|wx|Write values into cells of a spreadsheet.|spreadsheet_id:string*:Spreadsheet;range:string*:A1 range;values:array*:Rows of values
docs_create|wx|Create a Google Doc with text.|title:string*:Title;content:string:Text
docs_append_text|wx|Append text to a Google Doc.|document_id:string*:Document;text:string*:Text
"""

SERVERS["stripe"] = """
list_customers|rx|List Stripe customers, optionally by email.|email:string:Email;limit:integer:How many
create_customer|wx|Create a Stripe customer.|name:string*:Name;email:string:Email
retrieve_customer|rx|Get a Stripe customer with their subscriptions.|customer_id:string*:Customer id
list_payment_intents|rx|List payments (payment intents) with status and amounts.|customer:string:Customer id;limit:integer:How many
create_payment_link|wx|Create a payment link for a price.|price:string*:Price id;quantity:integer*:Quantity
create_invoice|wx|Create a draft invoice for a customer.|customer:string*:Customer id;days_until_due:integer:Days until due
create_invoice_item|wx|Add a line item to a customer's next invoice.|customer:string*:Customer id;price:string*:Price id;invoice:string:Invoice id
finalize_invoice|wx|Finalize a draft invoice so it can be paid.|invoice:string*:Invoice id
list_invoices|rx|List invoices with status and amounts due.|customer:string:Customer id;status:string:draft, open, paid
create_refund|dx|Refund a payment, fully or partly.|payment_intent:string*:Payment intent id;amount:integer:Amount in cents;reason:string:Reason
list_subscriptions|rx|List subscriptions with their plans and status.|customer:string:Customer id;status:string:Status
cancel_subscription|dx|Cancel a customer's subscription.|subscription:string*:Subscription id;at_period_end:boolean:At the end of the period
update_subscription|wx|Change a subscription's plan or quantity.|subscription:string*:Subscription id;price:string:New price;quantity:integer:Quantity
list_products|rx|List products in the Stripe catalog.|active:boolean:Only active
create_product|wx|Create a product.|name:string*:Name;description:string:Description
create_price|wx|Create a price for a product, one-off or recurring.|product:string*:Product id;unit_amount:integer*:Amount in cents;currency:string*:Currency;interval:string:month or year
retrieve_balance|rx|Get the Stripe account balance, available and pending.|
list_disputes|rx|List payment disputes (chargebacks).|
create_coupon|wx|Create a discount coupon.|percent_off:number:Percentage;amount_off:integer:Amount;duration:string*:once, repeating or forever
search_documentation|rx|Search the Stripe documentation.|question:string*:What to look up
"""

SERVERS["sentry"] = """
list_issues|rx|List Sentry issues (grouped errors) of a project, newest or most frequent first.|organization:string*:Organization slug;project:string*:Project slug;query:string:Search query;sort:string:date or freq
get_issue_details|rx|Get a Sentry issue with its stack trace and latest event.|issue_id:string*:Issue id
resolve_issue|wx|Mark a Sentry issue as resolved.|issue_id:string*:Issue id
assign_issue|wx|Assign a Sentry issue to a person or team.|issue_id:string*:Issue id;assignee:string*:User or team
list_projects|rx|List the projects of a Sentry organization.|organization:string*:Organization slug
list_releases|rx|List releases and their health.|organization:string*:Organization slug;project:string:Project slug
get_event|rx|Get one error event with breadcrumbs and context.|event_id:string*:Event id;project:string*:Project slug
search_events|rx|Search error and transaction events with Discover queries.|organization:string*:Organization slug;query:string*:Query;fields:array:Fields
list_alerts|rx|List alert rules of a project.|project:string*:Project slug
create_alert_rule|wx|Create an alert rule.|project:string*:Project slug;name:string*:Name;conditions:array*:Conditions
get_performance_summary|rx|Get transaction throughput, latency percentiles and failure rate.|project:string*:Project slug;period:string:Time period
ignore_issue|wx|Ignore (mute) a Sentry issue.|issue_id:string*:Issue id;duration_minutes:integer:For how long
"""

SERVERS["web"] = """
web_search|rx|Search the web and return titles, links and snippets.|query:string*:Search query;count:integer:How many results
fetch_url|rx|Fetch a web page and return its main text as Markdown.|url:string*:Address;max_length:integer:Characters to return
news_search|rx|Search recent news articles.|query:string*:Search query;freshness:string:day, week or month
image_search|rx|Search the web for images.|query:string*:Search query
local_search|rx|Find businesses and places near a location.|query:string*:What to look for;location:string:Where
summarize_url|rx|Fetch a web page and summarize it.|url:string*:Address
"""

SERVERS["weather"] = """
get_forecast|rx|Get the weather forecast for a location for the next days.|latitude:number*:Latitude;longitude:number*:Longitude;days:integer:How many days
get_current_weather|rx|Get the current weather: temperature, wind and conditions.|city:string*:City name
get_alerts|rx|Get active weather alerts for a US state.|state:string*:Two-letter state code
get_air_quality|rx|Get the air quality index and pollutant levels.|city:string*:City name
get_historical_weather|rx|Get past weather for a date.|city:string*:City name;date:string*:Date
"""

SERVERS["todoist"] = """
get_tasks|rx|List Todoist tasks, by project, label or due date.|project_id:string:Project;filter:string:Todoist filter such as today or overdue
create_task|wx|Add a task to Todoist with a due date and priority.|content:string*:Task;due_string:string:Due, in plain words;priority:integer:1 to 4;project_id:string:Project
update_task|wx|Change a Todoist task.|task_id:string*:Task id;content:string:Text;due_string:string:Due
close_task|wx|Complete a Todoist task.|task_id:string*:Task id
delete_task|dx|Delete a Todoist task.|task_id:string*:Task id
get_projects|rx|List Todoist projects.|
create_project|wx|Create a Todoist project.|name:string*:Project name
get_labels|rx|List Todoist labels.|
add_comment|wx|Comment on a Todoist task.|task_id:string*:Task id;content:string*:Comment
get_completed_tasks|rx|List tasks completed in a period.|since:string:From;until:string:To
"""

SERVERS["ci"] = """
list_pipelines|rx|List recent CI pipelines with status, branch and duration.|project:string*:Project;branch:string:Branch;status:string:Status
get_pipeline|rx|Get a CI pipeline with its jobs and their status.|project:string*:Project;pipeline_id:integer*:Pipeline id
get_job_log|rx|Get the log output of a CI job.|project:string*:Project;job_id:integer*:Job id;tail:integer:Last lines
retry_job|wx|Retry a failed CI job.|project:string*:Project;job_id:integer*:Job id
cancel_pipeline|wx|Cancel a running CI pipeline.|project:string*:Project;pipeline_id:integer*:Pipeline id
trigger_pipeline|wx|Start a CI pipeline on a branch with variables.|project:string*:Project;ref:string*:Branch or tag;variables:object:Variables
list_artifacts|rx|List the artifacts a CI job produced.|project:string*:Project;job_id:integer*:Job id
download_artifact|rx|Download a CI job artifact.|project:string*:Project;job_id:integer*:Job id;path:string*:Where to save
list_schedules|rx|List scheduled CI pipelines.|project:string*:Project
get_test_report|rx|Get the test report of a pipeline: failed tests first.|project:string*:Project;pipeline_id:integer*:Pipeline id
list_environments|rx|List deployment environments and what is deployed there.|project:string*:Project
list_runners|rx|List CI runners and whether they are online.|
"""

SERVERS["confluence"] = """
search_pages|rx|Search Confluence pages with CQL or plain words.|query:string*:Search text;space:string:Space key;limit:integer:How many
get_page|rx|Get a Confluence page's content as Markdown.|page_id:string*:Page id
create_page|wx|Create a Confluence page in a space.|space_key:string*:Space;title:string*:Title;body:string*:Markdown content;parent_id:string:Parent page
update_page|wx|Update a Confluence page's title or content.|page_id:string*:Page id;body:string*:New content;title:string:New title
delete_page|dx|Delete a Confluence page.|page_id:string*:Page id
list_spaces|rx|List Confluence spaces.|
get_page_children|rx|List the child pages of a Confluence page.|page_id:string*:Page id
add_page_comment|wx|Comment on a Confluence page.|page_id:string*:Page id;body:string*:Comment
get_page_history|rx|Get the version history of a Confluence page.|page_id:string*:Page id
add_label|wx|Add a label to a Confluence page.|page_id:string*:Page id;label:string*:Label
get_attachments|rx|List a page's attachments.|page_id:string*:Page id
export_pdf|rx|Export a Confluence page as PDF.|page_id:string*:Page id;path:string*:Where to save
"""

SERVERS["hubspot"] = """
search_contacts|rx|Search CRM contacts by name, email or company.|query:string*:Words to find;limit:integer:How many
get_contact|rx|Get a CRM contact with properties and recent activity.|contact_id:string*:Contact id
create_contact|wx|Create a CRM contact.|email:string*:Email;firstname:string:First name;lastname:string:Last name;company:string:Company
update_contact|wx|Update a CRM contact's properties.|contact_id:string*:Contact id;properties:object*:Properties
list_deals|rx|List deals in the sales pipeline with stage and amount.|pipeline:string:Pipeline;stage:string:Stage
create_deal|wx|Create a deal in the sales pipeline.|dealname:string*:Name;amount:number:Amount;dealstage:string*:Stage;contact_id:string:Contact
update_deal_stage|wx|Move a deal to another pipeline stage.|deal_id:string*:Deal id;dealstage:string*:Stage
list_companies|rx|List companies in the CRM.|query:string:Name to find
create_company|wx|Create a company in the CRM.|name:string*:Name;domain:string:Website domain
log_activity|wx|Log a call, email or meeting on a contact's timeline.|contact_id:string*:Contact id;type:string*:call, email or meeting;notes:string*:Notes
create_task|wx|Create a follow-up task in the CRM.|title:string*:Task;due_date:string:Due;contact_id:string:Contact
list_tickets|rx|List support tickets in the CRM.|status:string:Status
get_pipeline_report|rx|Get the sales pipeline total by stage for a period.|period:string:Period
delete_contact|dx|Delete a CRM contact.|contact_id:string*:Contact id
"""

SERVERS["zendesk"] = """
search_tickets|rx|Search Zendesk support tickets.|query:string*:Search text;status:string:new, open, pending, solved
get_ticket|rx|Get a Zendesk ticket with its conversation.|ticket_id:integer*:Ticket id
create_ticket|wx|Create a Zendesk support ticket.|subject:string*:Subject;description:string*:First comment;requester_email:string:Requester;priority:string:Priority
update_ticket|wx|Update a ticket's status, priority or assignee.|ticket_id:integer*:Ticket id;status:string:Status;priority:string:Priority;assignee_id:integer:Agent
reply_ticket|wx|Reply to the customer on a ticket, publicly or as an internal note.|ticket_id:integer*:Ticket id;body:string*:Reply;public:boolean:Visible to the customer
list_views|rx|List Zendesk views (ticket queues).|
get_view_tickets|rx|Get the tickets in a view.|view_id:integer*:View id
merge_tickets|wx|Merge tickets into one.|target_id:integer*:Ticket to keep;source_ids:array*:Tickets to merge
list_macros|rx|List support macros (canned replies).|
apply_macro|wx|Apply a macro to a ticket.|ticket_id:integer*:Ticket id;macro_id:integer*:Macro id
search_help_center|rx|Search help center articles.|query:string*:Words to find
get_satisfaction_ratings|rx|Get customer satisfaction ratings for a period.|start:string:From;end:string:To
"""


def param(spec):
    name, typ, desc = spec.split(":", 2)
    required = typ.endswith("*")
    typ = typ.rstrip("*")
    schema = {"type": typ, "description": desc}
    if typ == "array":
        schema["items"] = {"type": "string"} if "Paths" in desc or "Emails" in desc or "ids" in desc.lower() else {}
    return name, schema, required


def tool(line):
    name, ann, desc, params = line.split("|", 3)
    props, required = {}, []
    for spec in filter(None, params.split(";")):
        pname, schema, req = param(spec)
        props[pname] = schema
        if req:
            required.append(pname)
    schema = {"type": "object", "properties": props}
    if required:
        schema["required"] = required
    annotations = {
        "readOnlyHint": "r" in ann,
        "destructiveHint": "d" in ann,
        "openWorldHint": "x" in ann,
    }
    if "r" in ann:
        del annotations["destructiveHint"]
    title = name.replace("_", " ").capitalize()
    return {"name": name, "title": title, "description": desc, "inputSchema": schema, "annotations": annotations}


def main():
    os.makedirs("catalog", exist_ok=True)
    total = 0
    for alias, spec in SERVERS.items():
        tools = [tool(l) for l in spec.strip().splitlines()]
        with open(os.path.join("catalog", alias + ".json"), "w") as f:
            json.dump({"tools": tools}, f, indent=1, sort_keys=True)
            f.write("\n")
        total += len(tools)
    print(f"{len(SERVERS)} servers, {total} tools")


if __name__ == "__main__":
    main()
