/* suanli-agent-list.c — the agents a workbench connects to, remembered with their tokens
 *
 * One key file, readable by its owner only ($XDG_CONFIG_HOME/suanli/agents): a group per agent
 * ("agent 1", …: an address such as [::1]:7811 cannot name a group), with its address, its token
 * and, for an agent whose certificate no authority signed, the certificate to pin
 * (`certificate=/path/agent.pem`). Tokens live there and nowhere else: not
 * in GSettings, not in logs. Every change rewrites the file whole, atomically.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "suanli-agent-list.h"

struct _SuanliAgentList
{
  GObject    parent_instance;

  char      *path;
  GKeyFile  *file;
  GPtrArray *clients;   /* of SuanliAgentClient, in the file's order */
};

G_DEFINE_FINAL_TYPE (SuanliAgentList, suanli_agent_list, G_TYPE_OBJECT)

static void
suanli_agent_list_finalize (GObject *object)
{
  SuanliAgentList *self = SUANLI_AGENT_LIST (object);

  g_free (self->path);
  g_key_file_unref (self->file);
  g_ptr_array_unref (self->clients);
  G_OBJECT_CLASS (suanli_agent_list_parent_class)->finalize (object);
}

static void
suanli_agent_list_class_init (SuanliAgentListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = suanli_agent_list_finalize;
}

static void
suanli_agent_list_init (SuanliAgentList *self)
{
  self->file = g_key_file_new ();
  self->clients = g_ptr_array_new_with_free_func (g_object_unref);
}

/* Returns: (transfer full): an empty list kept in @path (NULL: the user's agents file). */
SuanliAgentList *
suanli_agent_list_new (const char *path)
{
  SuanliAgentList *self = g_object_new (SUANLI_TYPE_AGENT_LIST, NULL);

  self->path = path != NULL ? g_strdup (path) : g_build_filename (g_get_user_config_dir (), "suanli", "agents", NULL);
  return self;
}

const char *
suanli_agent_list_get_path (SuanliAgentList *self)
{
  return self->path;
}

static SuanliAgentClient *
client_from_group (SuanliAgentList *self,
                   const char      *group,
                   GError         **error)
{
  g_autofree char *address = g_key_file_get_string (self->file, group, "address", error);
  g_autofree char *token = g_key_file_get_string (self->file, group, "token", NULL);
  g_autofree char *certificate_file = g_key_file_get_string (self->file, group, "certificate", NULL);
  g_autoptr(SuanliAgentClient) client = NULL;

  if (address == NULL)
    return NULL;
  client = suanli_agent_client_new (address, token != NULL ? token : "", error);
  if (client == NULL)
    return NULL;
  if (certificate_file != NULL)
    {
      g_autoptr(GTlsCertificate) certificate = g_tls_certificate_new_from_file (certificate_file, error);

      if (certificate == NULL)
        return NULL;
      suanli_agent_client_set_pinned_certificate (client, certificate);
    }
  return g_steal_pointer (&client);
}

/* Reads the file: a missing one is an empty list; one others may read is refused (the tokens
 * would be theirs too). */
gboolean
suanli_agent_list_load (SuanliAgentList *self,
                        GError         **error)
{
  g_auto(GStrv) groups = NULL;
  GStatBuf info;

  g_ptr_array_set_size (self->clients, 0);
  if (g_stat (self->path, &info) != 0)
    {
      int saved = errno;

      if (saved == ENOENT)
        return TRUE;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Cannot read %s: %s"), self->path,
                   g_strerror (saved));
      return FALSE;
    }
  if ((info.st_mode & 077) != 0 || info.st_uid != getuid ())
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                   _("%s may be read by others, and it holds agents' tokens: make it yours alone (chmod 600)"),
                   self->path);
      return FALSE;
    }
  if (!g_key_file_load_from_file (self->file, self->path, G_KEY_FILE_NONE, error))
    return FALSE;
  groups = g_key_file_get_groups (self->file, NULL);
  for (guint i = 0; groups[i] != NULL; i++)
    {
      g_autoptr(GError) failure = NULL;
      SuanliAgentClient *client = client_from_group (self, groups[i], &failure);

      if (client == NULL)
        {
          g_prefix_error (&failure, "%s: [%s]: ", self->path, groups[i]);
          g_propagate_error (error, g_steal_pointer (&failure));
          return FALSE;
        }
      g_ptr_array_add (self->clients, client);
    }
  return TRUE;
}

guint
suanli_agent_list_get_n (SuanliAgentList *self)
{
  return self->clients->len;
}

/* Returns: (transfer none): the @index-th agent. */
SuanliAgentClient *
suanli_agent_list_get (SuanliAgentList *self,
                       guint            index)
{
  g_return_val_if_fail (index < self->clients->len, NULL);
  return g_ptr_array_index (self->clients, index);
}

/* Returns: (transfer none) (nullable): the agent at @address, if it is on the list. */
SuanliAgentClient *
suanli_agent_list_find (SuanliAgentList *self,
                        const char      *address)
{
  for (guint i = 0; i < self->clients->len; i++)
    if (g_str_equal (suanli_agent_client_get_address (g_ptr_array_index (self->clients, i)), address))
      return g_ptr_array_index (self->clients, i);
  return NULL;
}

static gboolean
save (SuanliAgentList *self,
      GError         **error)
{
  g_autofree char *folder = g_path_get_dirname (self->path);
  g_autofree char *text = g_key_file_to_data (self->file, NULL, NULL);

  if (g_mkdir_with_parents (folder, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Cannot make %s: %s"), folder, g_strerror (saved));
      return FALSE;
    }
  return g_file_set_contents_full (self->path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0600, error);
}

/* The group of the agent at @address, or NULL. */
static char *
find_group (SuanliAgentList *self,
            const char      *address)
{
  g_auto(GStrv) groups = g_key_file_get_groups (self->file, NULL);

  for (guint i = 0; groups[i] != NULL; i++)
    {
      g_autofree char *candidate = g_key_file_get_string (self->file, groups[i], "address", NULL);

      if (g_strcmp0 (candidate, address) == 0)
        return g_strdup (groups[i]);
    }
  return NULL;
}

/* Remembers @client (made with @token), replacing an agent at the same address. */
gboolean
suanli_agent_list_add (SuanliAgentList   *self,
                       SuanliAgentClient *client,
                       const char        *token,
                       GError           **error)
{
  const char *address = suanli_agent_client_get_address (client);
  SuanliAgentClient *old = suanli_agent_list_find (self, address);
  g_autofree char *group = find_group (self, address);

  if (old != NULL)
    g_ptr_array_remove (self->clients, old);
  for (guint n = 1; group == NULL; n++)
    {
      g_autofree char *candidate = g_strdup_printf ("agent %u", n);

      if (!g_key_file_has_group (self->file, candidate))
        group = g_steal_pointer (&candidate);
    }
  g_key_file_set_string (self->file, group, "address", address);
  g_key_file_set_string (self->file, group, "token", token);
  g_ptr_array_add (self->clients, g_object_ref (client));
  return save (self, error);
}

/* Forgets the agent at @address and its token. */
gboolean
suanli_agent_list_remove (SuanliAgentList *self,
                          const char      *address,
                          GError         **error)
{
  SuanliAgentClient *client = suanli_agent_list_find (self, address);
  g_autofree char *group = find_group (self, address);

  if (client != NULL)
    g_ptr_array_remove (self->clients, client);
  if (group != NULL)
    g_key_file_remove_group (self->file, group, NULL);
  return save (self, error);
}
